package io.cohort.config;

import java.util.ArrayList;
import java.util.List;

/**
 * The node and the balancer of one file run on one machine ({@code cohort node} and {@code cohort balancer} started
 * from the same file), so none of the balancer's ports may be one of the node's (its HTTP port, its admin port unless
 * {@code <admin enabled="false">}) where their addresses overlap as {@link BindAddresses} compare them: the second to
 * start would fail to bind. 0 (a free port each) never clashes. The error points at the balancer's attribute, which
 * comes later in the file, unless only the node's is written: then at the node's, naming the balancer's default.
 */
final class NodeAndBalancerPorts {

    private NodeAndBalancerPorts() {
    }

    /**
     * One listening port of the file.
     *
     * @param at        the element its attribute belongs to
     * @param attribute the attribute that sets the port
     * @param written   whether the attribute is in the file (else the port is its default)
     * @param name      what messages call it
     * @param move      how to write another port, for a message that points at the other listener
     */
    private record Listener(SourceElement at, String attribute, String address, int port, boolean written, String name,
                            String move) {
    }

    /** Refuses the file when a port of the balancer is a port of the node on an overlapping address. */
    static void check(SourceElement root, boolean adminInFile, CohortConfig node, BalancerConfig balancer)
            throws ConfigException {
        List<Listener> nodePorts = new ArrayList<>();
        nodePorts.add(listener(root.child("node"), "http-port", node.node().bindAddress(), node.node().httpPort()));
        if (node.admin().enabled()) {
            SourceElement admin = root.child("admin");
            nodePorts.add(adminInFile ? listener(admin, "port", node.admin().bindAddress(), node.admin().port())
                    : new Listener(admin, "port", node.admin().bindAddress(), node.admin().port(), false,
                            "the node's admin port (" + admin.tag() + " left out: its default)", "<admin port=\"...\"/>"));
        }
        SourceElement balancerAt = root.child("balancer");
        List<Listener> balancerPorts = List.of(listener(balancerAt, "port", balancer.bindAddress(), balancer.port()),
                listener(balancerAt, "admin-port", balancer.adminBindAddress(), balancer.adminPort()));
        for (Listener ofBalancer : balancerPorts) {
            for (Listener ofNode : nodePorts) {
                if (ofBalancer.port() != 0 && ofBalancer.port() == ofNode.port()
                        && BindAddresses.overlap(ofBalancer.address(), ofNode.address())) {
                    boolean atBalancer = ofBalancer.written() || !ofNode.written();
                    throw clash(atBalancer ? ofBalancer : ofNode, atBalancer ? ofNode : ofBalancer);
                }
            }
        }
    }

    private static Listener listener(SourceElement at, String attribute, String address, int port) {
        boolean written = at.written(attribute);
        return new Listener(at, attribute, address, port, written, "the " + attribute + " of the " + at.tag() + " at "
                + at.position() + (written ? "" : " (left out: its default)"), attribute + "=\"...\" on " + at.tag());
    }

    private static ConfigException clash(Listener fault, Listener other) {
        return fault.at().attributeError(fault.attribute(), fault.attribute() + "=\"" + fault.port() + "\" on "
                + fault.at().tag() + " is " + other.name() + ", on the same address",
                "another port than " + fault.port() + (other.written() ? "" : ", or " + other.move()));
    }
}
