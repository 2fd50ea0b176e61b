package io.cohort.bench.peers;

import io.cohort.balancer.BalancerServer;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.Policy;
import java.net.URI;
import java.util.List;

/**
 * Cohort's balancer in this process in front of any nodes that put their route after the session id
 * (Cohort, Tomcat with a jvmRoute, Jetty with a worker name): {@code roundrobin}, sticky on the route,
 * default health checks on each node's health URI.
 */
final class CohortBalancerFront implements FrontDoor {

    private final BalancerServer server;

    private CohortBalancerFront(BalancerServer server) {
        this.server = server;
    }

    static CohortBalancerFront start(List<BackendNode> nodes, int port) throws Exception {
        List<BalancerMember> members = nodes.stream()
                .map(n -> new BalancerMember(n.name(), "localhost", n.http(), n.health(), 1)).toList();
        BalancerConfig config = BalancerConfig.defaults(members).withPolicy(Policy.ROUND_ROBIN, "localhost")
                .withPorts(port, 0);
        return new CohortBalancerFront(BalancerServer.start(config));
    }

    @Override
    public URI uri() {
        return server.uri();
    }

    @Override
    public void close() {
        server.stop();
    }
}
