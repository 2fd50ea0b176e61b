package io.cohort.cluster;

import java.net.URI;
import java.util.Objects;

/**
 * One node of the cluster as the others see it.
 *
 * @param name the node's configured name, unique in the cluster
 * @param route the suffix of the session ids this node owns ({@code <id>.<route>}); the node's name
 * @param host the configured host name, used by the balancer's local-affinity policies (several
 *     nodes on one machine may emulate different hosts)
 * @param httpAddress where the node serves applications, e.g. {@code http://127.0.0.1:8081}
 * @param adminAddress where the node serves health, metrics and the admin API
 */
public record Member(String name, String route, String host, URI httpAddress, URI adminAddress) {

    public Member {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(httpAddress, "httpAddress");
        Objects.requireNonNull(adminAddress, "adminAddress");
        if (route.indexOf('.') >= 0) {
            throw new IllegalArgumentException("route must not contain '.': " + route);
        }
    }
}
