package io.cohort.config;

import java.util.Objects;

/**
 * A {@code <member>} of static peer discovery: where another member's cluster transport listens.
 *
 * @param host its host name or IP address
 * @param port its port, 1 to 65535
 */
public record PeerMember(String host, int port) {

    public PeerMember {
        Objects.requireNonNull(host, "host");
        Ports.check("port", port, 1);
    }

    /** {@code host[port]}, the notation of JGroups' TCPPING {@code initial_hosts}. */
    public String address() {
        return host + "[" + port + "]";
    }
}
