package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.SystemNames;
import io.cohort.cli.cluster.LocalClusterPlan;
import io.cohort.cli.cluster.ReplicationPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The experiments of one run, in run order: for each load, the 1-node system without replication first (the
 * base of every ratio), then for each node count every pattern; then the failover experiments. A pattern is
 * measured at 1 node only as {@code none} (replication needs a second node). Failover runs at the largest node
 * count (at least 2).
 *
 * @param preset    {@code quick}, {@code full} or {@code custom}
 * @param nodes     node counts
 * @param loads     loads per node
 * @param patterns  patterns in the study's notation
 * @param failover  patterns to run a failover experiment for (may be empty)
 * @param warmup    warm-up of every experiment
 * @param duration  measurement window of every experiment
 * @param failoverDuration measurement window of the failover experiments (the kill is in its middle)
 */
public record StudyPlan(String preset, List<Integer> nodes, List<LoadLevel> loads, List<String> patterns,
        List<String> failover, Duration warmup, Duration duration, Duration failoverDuration) implements RunPlan {

    /** Every pattern the study measured, plus {@code none} and the database protocol's {@code 3211}. */
    public static final List<String> ALL_PATTERNS = List.of("none", "2211", "2212", "2111", "2112", "2121", "2122",
            "2221", "2222", "1211", "2311", "2211wq2", "2211wq3", "3211");
    /** The failover experiments of the presets: the must-show pair. */
    public static final List<String> PRESET_FAILOVER = List.of("2211", "2212");

    public StudyPlan {
        Objects.requireNonNull(preset, "preset");
        nodes = List.copyOf(new LinkedHashSet<>(nodes));
        loads = List.copyOf(loads);
        patterns = List.copyOf(new LinkedHashSet<>(patterns));
        failover = List.copyOf(new LinkedHashSet<>(failover));
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(failoverDuration, "failoverDuration");
        if (nodes.isEmpty() || loads.isEmpty() || (patterns.isEmpty() && failover.isEmpty())) {
            throw new IllegalArgumentException("nothing to run: give nodes, a load and patterns");
        }
        for (int n : nodes) {
            if (n < 1 || n > LocalClusterPlan.MAX_NODES) {
                throw new IllegalArgumentException("node counts must be 1 to "
                        + LocalClusterPlan.MAX_NODES + ": " + n);
            }
        }
        for (String pattern : patterns) {
            ReplicationPattern.parse(pattern); // a clear message for a typo
        }
        for (String pattern : failover) {
            if (!ReplicationPattern.parse(pattern).replicates()) {
                throw new IllegalArgumentException("a failover experiment needs a replicating pattern, not " + pattern);
            }
        }
        if (duration.isNegative() || duration.isZero() || failoverDuration.isNegative() || failoverDuration.isZero()
                || warmup.isNegative()) {
            throw new IllegalArgumentException("durations must be positive (warm-up may be 0)");
        }
    }

    /**
     * {@code --quick}: every pattern at 2 nodes and the 1-node baseline at medium load, 4 s warm-up and 8 s
     * measured each, plus failover for 2211 and 2212 at 2 nodes (16 s windows). Budget on 2 cores: 17 experiments
     * of 12–20 s of load plus 15–20 s each for starting and stopping the cluster, under 10 minutes.
     */
    public static StudyPlan quick() {
        return new StudyPlan("quick", List.of(2), List.of(LoadLevel.parse("medium")), ALL_PATTERNS, PRESET_FAILOVER,
                Duration.ofSeconds(4), Duration.ofSeconds(8), Duration.ofSeconds(16));
    }

    /** {@code --full}: the study's matrix, nodes 1, 2, 4 at medium and high load, every pattern, and failover. */
    public static StudyPlan full() {
        return new StudyPlan("full", List.of(1, 2, 4), List.of(LoadLevel.parse("medium"), LoadLevel.parse("high")),
                ALL_PATTERNS, PRESET_FAILOVER, Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(60));
    }

    /** The experiments in run order. */
    @Override
    public List<ExperimentSpec> experiments() {
        List<ExperimentSpec> specs = new ArrayList<>();
        for (LoadLevel load : loads) {
            specs.add(spec("none", 1, load, false));
            for (int n : nodes) {
                for (String pattern : patterns) {
                    boolean baseline = n == 1 && pattern.equals("none");
                    if (n > 1 && !baseline) {
                        specs.add(spec(pattern, n, load, false));
                    }
                }
            }
        }
        int failoverNodes = Math.max(2, nodes.stream().mapToInt(Integer::intValue).max().orElse(2));
        for (String pattern : failover) {
            specs.add(spec(pattern, failoverNodes, loads.get(0), true));
        }
        return specs;
    }

    private ExperimentSpec spec(String pattern, int n, LoadLevel load, boolean failoverRun) {
        String id = SystemNames.COHORT + "-" + pattern + "-n" + n + "-" + load.label() + (failoverRun ? "-failover" : "");
        return new ExperimentSpec(id, SystemNames.COHORT, pattern, n, load.usersPerNode(), load.label(), warmup,
                failoverRun ? failoverDuration : duration, failoverRun);
    }
}
