package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.SystemNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The peer comparison ({@code cohort bench --peers}): Cohort and the systems users already know, measured side by
 * side in one run on one machine, with the same WAR, database, load driver, scenario and load, every system behind
 * one front door (Cohort's balancer, except {@code cohort-haproxy}). Experiments, in run order so that each pair is
 * measured back to back:
 * <ol>
 * <li>{@code cohort none}, {@code cohort 2211}, {@code cohort-haproxy 2211} (the same nodes behind HAProxy),
 *     {@code cohort 2212};</li>
 * <li>{@code tomcat-none} (StandardManager, sticky, no cluster), {@code tomcat-delta}, {@code tomcat-backup};</li>
 * <li>{@code cohort 3211} (Cohort's database protocol), {@code jetty-jdbc} (Jetty's JDBCSessionDataStore), both on the
 *     run's database;</li>
 * <li>failover (SIGKILL of node n1 in the middle of the window): {@code cohort 2211}, {@code tomcat-delta},
 *     {@code cohort 2212}, {@code tomcat-backup}.</li>
 * </ol>
 *
 * @param nodes            nodes of every system (at least 2)
 * @param load             the load per node
 * @param warmup           warm-up of every experiment
 * @param duration         measurement window of the steady experiments
 * @param failoverDuration measurement window of the failover experiments (the kill is in its middle)
 */
public record PeerPlan(int nodes, LoadLevel load, Duration warmup, Duration duration, Duration failoverDuration)
        implements RunPlan {

    /** The Cohort pattern measured behind both fronts. */
    public static final String BALANCER_PATTERN = "2211";

    /** How much longer the first experiment warms up. */
    public static final int FIRST_WARMUP_FACTOR = 3;

    public PeerPlan {
        Objects.requireNonNull(load, "load");
        Objects.requireNonNull(warmup, "warmup");
        Objects.requireNonNull(duration, "duration");
        Objects.requireNonNull(failoverDuration, "failoverDuration");
        if (nodes < 2 || nodes > io.cohort.cli.cluster.LocalClusterPlan.MAX_NODES) {
            throw new IllegalArgumentException("the peer comparison needs 2 to "
                    + io.cohort.cli.cluster.LocalClusterPlan.MAX_NODES + " nodes (replication and failover), not " + nodes);
        }
        if (duration.isNegative() || duration.isZero() || failoverDuration.isNegative() || failoverDuration.isZero()
                || warmup.isNegative()) {
            throw new IllegalArgumentException("durations must be positive (warm-up may be 0)");
        }
    }

    /**
     * {@code --peers}: 2 nodes at the high load (the development machine saturated, see
     * {@link LoadLevel#HIGH_USERS}), 4 s warm-up and 8 s measured as {@code --quick}, 16 s failover windows. So
     * short a warm-up leaves the nodes' JIT compiling during the window: the figures are a quick comparison (±10 %).
     * 13 experiments: 8 × 12 s + 1 × 20 s (the first warms up longer) + 4 × 20 s of load plus starting and stopping
     * each system (30–45 s each on the busy 2-core development machine).
     */
    public static PeerPlan defaults() {
        return new PeerPlan(2, LoadLevel.parse("high"), Duration.ofSeconds(4), Duration.ofSeconds(8),
                Duration.ofSeconds(16));
    }

    @Override
    public String preset() {
        return "peers";
    }

    @Override
    public List<LoadLevel> loads() {
        return List.of(load);
    }

    /**
     * The experiments in run order. The first one's warm-up is {@value #FIRST_WARMUP_FACTOR}× as long: it also warms
     * up this JVM (load driver, Cohort's balancer, the embedded database server), which would otherwise handicap the
     * first baseline against everything after it.
     */
    @Override
    public List<ExperimentSpec> experiments() {
        List<ExperimentSpec> specs = new ArrayList<>();
        ExperimentSpec first = spec(SystemNames.COHORT, "none", false);
        specs.add(new ExperimentSpec(first.id(), first.target(), first.pattern(), first.nodes(), first.usersPerNode(),
                first.load(), warmup.multipliedBy(FIRST_WARMUP_FACTOR), first.duration(), false));
        specs.add(spec(SystemNames.COHORT, BALANCER_PATTERN, false));
        specs.add(spec(SystemNames.COHORT_HAPROXY, BALANCER_PATTERN, false));
        specs.add(spec(SystemNames.COHORT, "2212", false));
        specs.add(spec(SystemNames.TOMCAT_NONE, "none", false));
        specs.add(spec(SystemNames.TOMCAT_DELTA, "delta", false));
        specs.add(spec(SystemNames.TOMCAT_BACKUP, "backup", false));
        specs.add(spec(SystemNames.COHORT, "3211", false));
        specs.add(spec(SystemNames.JETTY_JDBC, "jdbc", false));
        specs.add(spec(SystemNames.COHORT, "2211", true));
        specs.add(spec(SystemNames.TOMCAT_DELTA, "delta", true));
        specs.add(spec(SystemNames.COHORT, "2212", true));
        specs.add(spec(SystemNames.TOMCAT_BACKUP, "backup", true));
        return specs;
    }

    private ExperimentSpec spec(String target, String pattern, boolean failover) {
        String system = target.endsWith("-" + pattern) ? target : target + "-" + pattern;
        String id = system + "-n" + nodes + "-" + load.label() + (failover ? "-failover" : "");
        return new ExperimentSpec(id, target, pattern, nodes, load.usersPerNode(), load.label(), warmup,
                failover ? failoverDuration : duration, failover);
    }
}
