package io.cohort.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The {@code <cluster>} element: session replication between the members of one cluster.
 *
 * @param name        the cluster (group) name
 * @param enabled     whether sessions are replicated at all; false makes them local
 * @param replication the replication policy
 * @param protocol    the transport
 * @param security    member authentication and encryption, if configured
 */
public record ClusterConfig(String name, boolean enabled, ReplicationSettings replication, ProtocolConfig protocol,
                            Optional<SecurityConfig> security) {

    public ClusterConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(security, "security");
    }

    /**
     * The cluster as one web application sees it: its {@code cohort-web.xml} may switch replication
     * off (or on again) and change the replication settings; name, protocol and security are the
     * node's.
     */
    public ClusterConfig forWebApp(WebAppOverride override) {
        return override.replication()
                .map(o -> new ClusterConfig(name, o.enabled().orElse(enabled), replication.apply(o), protocol, security))
                .orElse(this);
    }
}
