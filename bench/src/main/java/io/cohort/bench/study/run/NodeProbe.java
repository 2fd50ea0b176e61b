package io.cohort.bench.study.run;

import java.net.URI;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * How to sample one node: its name, its process id when it runs on this machine (CPU from
 * {@code /proc/<pid>/stat}), and its Prometheus {@code /metrics} address (replication byte counters; the
 * process CPU gauge when there is no pid).
 *
 * @param name     the node's name (its session route)
 * @param pid      its process on this machine, or empty
 * @param metrics  its admin {@code /metrics} address
 */
public record NodeProbe(String name, OptionalLong pid, URI metrics) {

    public NodeProbe {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pid, "pid");
        Objects.requireNonNull(metrics, "metrics");
    }
}
