package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.SystemNames;
import io.cohort.cli.cluster.LocalClusterPlan;
import io.cohort.cli.cluster.ReplicationPattern;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * The experiments of one run, in run order: for each load, the 1-node system without replication first (the
 * base of every ratio), then for each node count every pattern; then the failover experiments. A pattern is
 * measured at 1 node only as {@code none} (replication needs a second node). Failover runs at the largest node
 * count (at least 2).
 *
 * <p>With more than one round, the patterns at 2 or more nodes are measured once per round, one round after the
 * other, and every second round takes them in reverse order (none, 2211, 2211, none, …), so that a machine whose
 * speed drifts during the run does not favour the pattern that runs first. The 1-node baseline and the failover
 * experiments run once. Repeated experiments carry {@code -r<round>} in their id.
 *
 * @param preset    {@code quick}, {@code full} or {@code custom}
 * @param nodes     node counts
 * @param loads     loads per node
 * @param patterns  patterns in the study's notation
 * @param failover  patterns to run a failover experiment for (may be empty)
 * @param warmup    warm-up of every experiment
 * @param duration  measurement window of every experiment
 * @param failoverDuration measurement window of the failover experiments (the kill is in its middle)
 * @param rounds    how many times each pattern at 2 or more nodes is measured (1 to {@value #MAX_ROUNDS})
 */
public record StudyPlan(String preset, List<Integer> nodes, List<LoadLevel> loads, List<String> patterns,
        List<String> failover, Duration warmup, Duration duration, Duration failoverDuration, int rounds)
        implements RunPlan {

    /** The most rounds a run may have. */
    public static final int MAX_ROUNDS = 50;

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
        if (rounds < 1 || rounds > MAX_ROUNDS) {
            throw new IllegalArgumentException("rounds must be 1 to " + MAX_ROUNDS + ": " + rounds);
        }
        if (rounds > 1 && nodes.stream().noneMatch(n -> n > 1)) {
            throw new IllegalArgumentException("rounds repeat the experiments at 2 or more nodes; this plan has none");
        }
    }

    /** A plan of one round. */
    public StudyPlan(String preset, List<Integer> nodes, List<LoadLevel> loads, List<String> patterns,
            List<String> failover, Duration warmup, Duration duration, Duration failoverDuration) {
        this(preset, nodes, loads, patterns, failover, warmup, duration, failoverDuration, 1);
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
            specs.add(spec("none", 1, load, false, 1));
            for (int round = 1; round <= rounds; round++) {
                List<String> order = new ArrayList<>(patterns);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (int n : nodes) {
                    for (String pattern : order) {
                        if (n > 1) {
                            specs.add(spec(pattern, n, load, false, round));
                        }
                    }
                }
            }
        }
        int failoverNodes = Math.max(2, nodes.stream().mapToInt(Integer::intValue).max().orElse(2));
        for (String pattern : failover) {
            specs.add(spec(pattern, failoverNodes, loads.get(0), true, 1));
        }
        return specs;
    }

    private ExperimentSpec spec(String pattern, int n, LoadLevel load, boolean failoverRun, int round) {
        String id = SystemNames.COHORT + "-" + pattern + "-n" + n + "-" + load.label() + (failoverRun ? "-failover" : "")
                + (rounds > 1 && n > 1 && !failoverRun ? "-r" + round : "");
        return new ExperimentSpec(id, SystemNames.COHORT, pattern, n, load.usersPerNode(), load.label(), warmup,
                failoverRun ? failoverDuration : duration, failoverRun, round);
    }
}
