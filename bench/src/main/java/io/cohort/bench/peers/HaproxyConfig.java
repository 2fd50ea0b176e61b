package io.cohort.bench.peers;

import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * The {@code haproxy.cfg} of a bench front: HTTP mode on {@code 127.0.0.1:port}, {@code balance roundrobin}
 * for requests without a session, and stickiness on the route after the session id: a request whose
 * {@code JSESSIONID} cookie is {@code <id>.<route>} goes to the server named {@code <route>}
 * ({@code use-server} on {@code req.cook(JSESSIONID),field(2,.)}), the same suffix that Cohort's balancer,
 * mod_jk and Tomcat's jvmRoute use. A server that is down (active HTTP checks on each node's health URI,
 * every second, down after 2 failures) is skipped, and a request whose connection to its server fails is
 * re-dispatched to another server ({@code option redispatch}), so a crashed owner's users move on at once.
 * Each response names its server in {@value #SERVED_BY_HEADER}.
 *
 * @param port  the front's port on 127.0.0.1
 * @param nodes the servers; their health URIs must share one path
 */
public record HaproxyConfig(int port, List<BackendNode> nodes) {

    /** The response header in which HAProxy names the server that answered, like Cohort's X-Cohort-Routed. */
    public static final String SERVED_BY_HEADER = "X-Served-By";

    public HaproxyConfig {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("HAProxy port must be 1 to 65535, not " + port);
        }
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("HAProxy needs at least one server");
        }
        if (nodes.stream().map(n -> n.health().getPath()).distinct().count() != 1) {
            throw new IllegalArgumentException("the servers' health URIs must share one path: "
                    + nodes.stream().map(BackendNode::health).toList());
        }
        if (nodes.stream().map(BackendNode::name).distinct().count() != nodes.size()) {
            throw new IllegalArgumentException("server names must be unique: "
                    + nodes.stream().map(BackendNode::name).toList());
        }
    }

    /** The configuration file's text. */
    public String render() {
        StringBuilder cfg = new StringBuilder();
        cfg.append("""
                # written by cohort bench (io.cohort.bench.peers.HaproxyConfig)
                global
                    maxconn 4096

                defaults
                    mode http
                    timeout connect 2s
                    timeout client 60s
                    timeout server 60s
                    timeout http-request 10s
                    retries 2
                    option redispatch 1
                    default-server inter 1s fall 2 rise 1

                frontend bench
                    bind 127.0.0.1:%d
                    default_backend nodes

                backend nodes
                    balance roundrobin
                    option httpchk GET %s
                    http-check expect status 200
                    http-response set-header %s %%s
                """.formatted(port, nodes.get(0).health().getPath(), SERVED_BY_HEADER));
        for (BackendNode node : nodes) {
            cfg.append("    use-server %s if { req.cook(JSESSIONID),field(2,.) -m str %s }%n"
                    .formatted(node.name(), node.name()));
        }
        for (BackendNode node : nodes) {
            cfg.append("    server %s %s check addr %s port %d%n".formatted(node.name(), hostPort(node.http()),
                    host(node.health()), portOf(node.health())));
        }
        return cfg.toString();
    }

    private static String hostPort(URI uri) {
        return host(uri) + ":" + portOf(uri);
    }

    private static String host(URI uri) {
        return Objects.requireNonNull(uri.getHost(), () -> "no host in " + uri);
    }

    private static int portOf(URI uri) {
        if (uri.getPort() > 0) {
            return uri.getPort();
        }
        return "https".equals(uri.getScheme()) ? 443 : 80;
    }
}
