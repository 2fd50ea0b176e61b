package io.cohort.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything one configuration file describes: a node (with its cluster), a load balancer, or both.
 * At least one is present; the schema refuses a file with neither. {@link ConfigLoader#load} and
 * {@link ConfigLoader#loadBalancer} read one part and refuse a file without it.
 *
 * @param source   the file it was read from
 * @param node     the node, when the file has a {@code <node>}
 * @param balancer the balancer, when the file has a {@code <balancer>}
 */
public record ConfigFile(Path source, Optional<CohortConfig> node, Optional<BalancerConfig> balancer) {

    public ConfigFile {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(balancer, "balancer");
        if (node.isEmpty() && balancer.isEmpty()) {
            throw new IllegalArgumentException("a configuration file describes a node, a balancer or both");
        }
    }
}
