package io.cohort.bench.study.model;

import java.util.List;
import java.util.Objects;

/**
 * Everything measured in one experiment.
 *
 * @param spec      what was run
 * @param summary   the measures over the measurement window
 * @param timeline  per-second throughput, warm-up included (negative seconds)
 * @param nodes     per-node samples, warm-up included
 * @param failover  the failover outcome, or null when {@link ExperimentSpec#failover()} is false
 * @param notes     anything the run observed that the numbers do not say (a node that failed to start, a
 *                  driver that could not keep up with the schedule, …); empty when none
 */
public record ExperimentResult(ExperimentSpec spec, Summary summary, List<ThroughputPoint> timeline,
        List<NodeSample> nodes, FailoverOutcome failover, List<String> notes) {

    public ExperimentResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(summary, "summary");
        timeline = List.copyOf(timeline);
        nodes = List.copyOf(nodes);
        notes = List.copyOf(notes);
    }
}
