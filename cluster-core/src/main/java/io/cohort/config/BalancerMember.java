package io.cohort.config;

import java.net.URI;
import java.util.Objects;

/**
 * A {@code <balancer-member>}: one node behind the balancer.
 *
 * @param name      the member's route, i.e. the node's name: session ids it owns end in {@code .name}
 * @param host      the host it counts as, for local affinity and per-host weights
 * @param url       where its HTTP connector listens (scheme, host and port; the balancer refuses a path); the port, if
 *                  given, is from 1 to {@link #MAX_PORT}
 * @param healthUrl its health endpoint, with a host and a port like {@code url}'s
 * @param weight    its routing weight for the weighted policies (1 to {@link #MAX_WEIGHT}): its own {@code weight}, else
 *                  its host's {@code <weight>}, else 1
 */
public record BalancerMember(String name, String host, URI url, URI healthUrl, int weight) {

    /** The highest routing weight: the weights of a whole cluster then add up to far less than an int holds. */
    public static final int MAX_WEIGHT = 10_000;

    /** The highest TCP port. */
    public static final int MAX_PORT = 65_535;

    public BalancerMember {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("member name must be letters, digits, '-' and '_': " + name);
        }
        Objects.requireNonNull(host, "host");
        requireHttp("url", url);
        requireHttp("healthUrl", healthUrl);
        if (weight < 1 || weight > MAX_WEIGHT) {
            throw new IllegalArgumentException("weight must be from 1 to " + MAX_WEIGHT + ": " + weight);
        }
    }

    private static void requireHttp(String what, URI uri) {
        Objects.requireNonNull(uri, what);
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException(what + " must be an http or https URL with a host and no query: " + uri);
        }
        if (uri.getPort() == 0 || uri.getPort() > MAX_PORT) {
            throw new IllegalArgumentException(what + " must have no port or one from 1 to " + MAX_PORT + ": " + uri);
        }
    }
}
