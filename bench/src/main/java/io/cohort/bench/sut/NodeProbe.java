package io.cohort.bench.sut;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How to sample one node: its name, its process id when it runs on this machine (CPU from
 * {@code /proc/<pid>/stat}), and its Prometheus metrics address when it has one (interconnect byte
 * counters; the process CPU gauge when there is no pid). A node without metrics has no interconnect
 * measure: the report says "not measured", never 0.
 *
 * @param name     the node's name (its session route)
 * @param pid      its process on this machine, or empty
 * @param metrics  its Prometheus text metrics address, or empty
 */
public record NodeProbe(String name, OptionalLong pid, Optional<URI> metrics) {

    public NodeProbe {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(metrics, "metrics");
        if (pid.isEmpty() && metrics.isEmpty()) {
            throw new IllegalArgumentException("node " + name + " has neither a process id nor metrics to sample");
        }
    }
}
