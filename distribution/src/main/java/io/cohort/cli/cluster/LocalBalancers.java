package io.cohort.cli.cluster;

import io.cohort.balancer.BalancerServer;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.Policy;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The balancers of a local cluster, one per emulated host, as in the study where every machine ran
 * an HTTP server in front of its application server: each balancer knows all nodes, counts as being
 * on its host, and routes with {@code roundrobin:local}, so new sessions stay on the host's own node
 * while it lives. They run in the {@code cohort cluster} process ({@code cohort bench} starts them the same way).
 */
public final class LocalBalancers implements AutoCloseable {

    private final List<Running> running;

    /** A balancer of the cluster and the host it serves. */
    public record Running(String host, BalancerServer server) {
    }

    private LocalBalancers(List<Running> running) {
        this.running = running;
    }

    /**
     * @param nodes the running nodes
     * @param basePort the first balancer's port (the next hosts' get the following ones), 0 for free ports
     * @param adminBasePort likewise for their admin ports
     */
    public static LocalBalancers start(List<ClusterState.Node> nodes, int basePort, int adminBasePort) throws Exception {
        List<BalancerMember> members = nodes.stream()
                .map(n -> new BalancerMember(n.name(), n.host(), n.http(), n.admin().resolve("/health"), 1))
                .toList();
        List<String> hosts = new ArrayList<>(new LinkedHashSet<>(nodes.stream().map(ClusterState.Node::host).toList()));
        List<Running> running = new ArrayList<>();
        try {
            for (int k = 0; k < hosts.size(); k++) {
                String host = hosts.get(k);
                BalancerConfig defaults = BalancerConfig.defaults(members);
                BalancerConfig config = new BalancerConfig("lb-" + host, host, defaults.bindAddress(),
                        basePort == 0 ? 0 : basePort + k, defaults.adminBindAddress(),
                        adminBasePort == 0 ? 0 : adminBasePort + k, Policy.ROUND_ROBIN_LOCAL, defaults.sessionCookie(),
                        defaults.connectTimeout(), defaults.requestTimeout(), defaults.idleTimeout(),
                        defaults.maxRequestBody(), defaults.maxHeaderSize(), defaults.memberLimits(),
                        defaults.gracefulStop(), defaults.health(), defaults.clientLimits(), members, defaults.hostWeights(),
                        defaults.trustedProxies());
                running.add(new Running(host, BalancerServer.start(config)));
            }
        } catch (Exception e) {
            running.forEach(r -> r.server().stop());
            throw e;
        }
        return new LocalBalancers(List.copyOf(running));
    }

    public List<Running> running() {
        return running;
    }

    /** The address of the first host's balancer, the one to open. */
    public URI first() {
        return running.get(0).server().uri();
    }

    @Override
    public void close() {
        running.forEach(r -> r.server().stop());
    }
}
