package io.cohort.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A node's whole configuration, the {@code <cohort>} root of a file valid against
 * {@code cohort-config-1.xsd}. Built by {@link ConfigLoader}, which validates everything once:
 * defaults are applied, paths are absolute, secrets are resolved, references between elements
 * hold. Immutable and safe to share and to log (secrets print as {@code Secret[****]}).
 *
 * @param source        the file it was read from
 * @param node          this node
 * @param admin         the admin endpoint ({@code <admin>} defaults if the element is absent)
 * @param dataSources   the JNDI data sources, in file order, names unique
 * @param serialization the deserialization limits (defaults if the element is absent)
 * @param cluster       the cluster; empty means sessions are local to this node
 */
public record CohortConfig(Path source, NodeConfig node, AdminConfig admin, List<DataSourceConfig> dataSources,
                           SerializationConfig serialization, Optional<ClusterConfig> cluster) {

    public CohortConfig {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(admin, "admin");
        dataSources = List.copyOf(dataSources);
        Objects.requireNonNull(serialization, "serialization");
        Objects.requireNonNull(cluster, "cluster");
        if (dataSources.stream().map(DataSourceConfig::name).distinct().count() != dataSources.size()) {
            throw new IllegalArgumentException("data source names must be unique");
        }
    }

    /** The declared data source with this JNDI name (relative to {@code java:comp/env}). */
    public Optional<DataSourceConfig> dataSource(String name) {
        return dataSources.stream().filter(ds -> ds.name().equals(name)).findFirst();
    }

    /** Whether sessions are replicated: a cluster is configured and enabled. */
    public boolean replicated() {
        return cluster.map(ClusterConfig::enabled).orElse(false);
    }
}
