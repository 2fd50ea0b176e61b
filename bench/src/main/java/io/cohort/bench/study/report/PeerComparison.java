package io.cohort.bench.study.report;

import static io.cohort.bench.study.model.SystemNames.COHORT;
import static io.cohort.bench.study.model.SystemNames.COHORT_HAPROXY;
import static io.cohort.bench.study.model.SystemNames.JETTY_JDBC;
import static io.cohort.bench.study.model.SystemNames.TOMCAT_BACKUP;
import static io.cohort.bench.study.model.SystemNames.TOMCAT_DELTA;
import static io.cohort.bench.study.model.SystemNames.TOMCAT_NONE;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The figures of a peer comparison run ({@code cohort bench --peers}): each system's measures, replication's
 * overhead relative to each system's own no-replication baseline, and the three goals of the comparison,
 * decided from the data.
 *
 * <p>Per steady experiment: throughput, mean and p99 response time, errors, sessions lost, <b>CPU per page</b> =
 * total node CPU-seconds / pages (mean CPU per node × nodes / pages per second), <b>interconnect bytes per page</b> =
 * bytes sent + received summed over the nodes / pages (each byte counted by its sender and its receiver; "not
 * measured" when the nodes had no byte counter). <b>Overhead</b>: throughput overhead = 1 − pages/s ÷ baseline's,
 * CPU-per-page overhead = CPU per page ÷ baseline's − 1; Cohort 2211/2212 against Cohort {@code none}, Tomcat
 * delta/backup against {@code tomcat-none}.
 *
 * <p>Goals: (1) Cohort's overhead (2211, async with one backup, as BackupManager with Tomcat's default async
 * channel) at most half of BackupManager's, in throughput and in CPU per page; when BackupManager shows no overhead
 * (≤ 0), Cohort must show none either. (2) Cohort loses no more sessions on SIGKILL than BackupManager, for each of
 * its failover experiments (2211, 2212). (3) Cohort's balancer's throughput at least 90 % of HAProxy's on the same
 * Cohort nodes.
 */
final class PeerComparison {

    /** Targets only a peer comparison has. */
    static final Set<String> PEER_TARGETS = Set.of(COHORT_HAPROXY, TOMCAT_NONE, TOMCAT_DELTA, TOMCAT_BACKUP, JETTY_JDBC);
    /** The balancer goal's share of HAProxy's throughput. */
    static final double BALANCER_SHARE = 0.90;
    /** Cohort's overhead at most this share of BackupManager's. */
    static final double OVERHEAD_SHARE = 0.5;

    /** One system of the comparison. */
    record System(String label, String target, String pattern) {
    }

    static final System COHORT_NONE = new System("Cohort none (no replication)", COHORT, "none");
    static final System COHORT_2211 = new System("Cohort 2211 (async, 1 backup)", COHORT, "2211");
    static final System COHORT_2212 = new System("Cohort 2212 (sync, 1 backup)", COHORT, "2212");
    static final System TOMCAT_STANDARD = new System("Tomcat StandardManager (no replication)", TOMCAT_NONE, "none");
    static final System DELTA = new System("Tomcat DeltaManager (all-to-all, async)", TOMCAT_DELTA, "delta");
    static final System BACKUP = new System("Tomcat BackupManager (1 backup, async)", TOMCAT_BACKUP, "backup");
    static final System COHORT_BEHIND_BALANCER = new System("Cohort 2211 behind Cohort's balancer", COHORT, "2211");
    static final System COHORT_BEHIND_HAPROXY = new System("Cohort 2211 behind HAProxy", COHORT_HAPROXY, "2211");
    static final System COHORT_3211 = new System("Cohort 3211 (database protocol)", COHORT, "3211");
    static final System JETTY = new System("Jetty 12 JDBCSessionDataStore", JETTY_JDBC, "jdbc");

    static final List<System> REPLICATION = List.of(COHORT_NONE, COHORT_2211, COHORT_2212, TOMCAT_STANDARD, DELTA, BACKUP);
    static final List<System> BALANCER = List.of(COHORT_BEHIND_BALANCER, COHORT_BEHIND_HAPROXY);
    static final List<System> DATABASE = List.of(COHORT_3211, JETTY);
    static final List<System> FAILOVER = List.of(COHORT_2211, COHORT_2212, DELTA, BACKUP);

    /** Replication's cost for one system against its own baseline; NaN where a figure is missing. */
    record Overhead(System system, System baseline, double throughputOverhead, double cpuPerPageOverhead) {
        boolean measured() {
            return !Double.isNaN(throughputOverhead) && !Double.isNaN(cpuPerPageOverhead);
        }
    }

    private final RunData data;

    PeerComparison(RunData data) {
        this.data = data;
    }

    /** Whether the run has any peer experiment (only then does the report have a peer section). */
    static boolean present(RunData data) {
        return data.all().stream().anyMatch(r -> PEER_TARGETS.contains(r.spec().target()));
    }

    /** The load of the peer experiments (the first peer experiment's). */
    String load() {
        return peerSpec().load();
    }

    /** The node count of the peer experiments (the first peer experiment's). */
    int nodes() {
        return peerSpec().nodes();
    }

    private ExperimentSpec peerSpec() {
        return data.all().stream().map(ExperimentResult::spec).filter(s -> PEER_TARGETS.contains(s.target()))
                .findFirst().orElseThrow(() -> new IllegalStateException("no peer experiment in this run"));
    }

    /** The steady experiment of a system at the comparison's size and load. */
    Optional<ExperimentResult> steady(System system) {
        return data.find(system.target(), system.pattern(), nodes(), load());
    }

    /** The failover experiment of a system at the comparison's size and load. */
    Optional<ExperimentResult> failover(System system) {
        return data.all().stream().filter(r -> r.spec().failover() && r.failover() != null
                && r.spec().target().equals(system.target()) && r.spec().pattern().equals(system.pattern())
                && r.spec().nodes() == nodes() && r.spec().load().equals(load())).findFirst();
    }

    /** Total node CPU-seconds per page, in milliseconds; NaN without pages. */
    static double cpuMsPerPage(ExperimentResult result) {
        Summary s = result.summary();
        if (s.pagesPerSecond() <= 0) {
            return Double.NaN;
        }
        return s.cpuPercentPerNode() / 100 * result.spec().nodes() / s.pagesPerSecond() * 1000;
    }

    /** Interconnect bytes (sent + received over all nodes) per page; empty when not measured. */
    static OptionalDouble bytesPerPage(ExperimentResult result) {
        Summary s = result.summary();
        if (s.interconnectUnmeasured() || s.pagesPerSecond() <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Measure.interconnectPerPage(result) * 1000);
    }

    /** The overheads of Cohort 2211, 2212 and Tomcat delta, backup against their own baselines. */
    List<Overhead> overheads() {
        List<Overhead> overheads = new ArrayList<>();
        for (System system : List.of(COHORT_2211, COHORT_2212, DELTA, BACKUP)) {
            System baseline = system.target().equals(COHORT) ? COHORT_NONE : TOMCAT_STANDARD;
            overheads.add(overhead(system, baseline));
        }
        return overheads;
    }

    Overhead overhead(System system, System baseline) {
        Optional<ExperimentResult> measured = steady(system);
        Optional<ExperimentResult> base = steady(baseline);
        if (measured.isEmpty() || base.isEmpty() || base.get().summary().pagesPerSecond() <= 0) {
            return new Overhead(system, baseline, Double.NaN, Double.NaN);
        }
        double throughput = 1 - measured.get().summary().pagesPerSecond() / base.get().summary().pagesPerSecond();
        double cpu = cpuMsPerPage(measured.get()) / cpuMsPerPage(base.get()) - 1;
        return new Overhead(system, baseline, throughput, cpu);
    }

    /** The three goals with this run's figures. */
    List<TargetResult> goals() {
        return List.of(overheadGoal(), sessionsGoal(), balancerGoal());
    }

    TargetResult overheadGoal() {
        String target = "Cohort's replication overhead at most half of Tomcat BackupManager's";
        String goal = "Cohort 2211 vs Cohort none, BackupManager vs StandardManager, same load: throughput overhead "
                + "and CPU-per-page overhead each ≤ " + Format.number(OVERHEAD_SHARE, 1) + " × BackupManager's "
                + "(≤ 0 when BackupManager's is ≤ 0)";
        Overhead cohort = overhead(COHORT_2211, COHORT_NONE);
        Overhead backup = overhead(BACKUP, TOMCAT_STANDARD);
        if (!cohort.measured() || !backup.measured()) {
            return new TargetResult(target, goal, "not measured: needs steady cohort none, cohort 2211, tomcat-none "
                    + "and tomcat-backup experiments at " + nodes() + " nodes, " + data.describeLoad(load()),
                    TargetResult.Status.NOT_MEASURED);
        }
        boolean throughputMet = withinShare(cohort.throughputOverhead(), backup.throughputOverhead());
        boolean cpuMet = withinShare(cohort.cpuPerPageOverhead(), backup.cpuPerPageOverhead());
        String measured = "throughput overhead: Cohort " + Format.percent(cohort.throughputOverhead())
                + ", BackupManager " + Format.percent(backup.throughputOverhead()) + " (" + (throughputMet ? "holds" : "fails")
                + "); CPU-per-page overhead: Cohort " + Format.percent(cohort.cpuPerPageOverhead()) + ", BackupManager "
                + Format.percent(backup.cpuPerPageOverhead()) + " (" + (cpuMet ? "holds" : "fails") + ")";
        return new TargetResult(target, goal, measured, TargetResult.Status.of(throughputMet && cpuMet));
    }

    /** Whether Cohort's overhead is at most the share of the peer's (at most 0 when the peer's is at most 0). */
    static boolean withinShare(double cohort, double peer) {
        return peer > 0 ? cohort <= OVERHEAD_SHARE * peer : cohort <= 0;
    }

    TargetResult sessionsGoal() {
        String target = "Cohort loses no more sessions on SIGKILL than Tomcat BackupManager";
        String goal = "sessions lost from the SIGKILL of node n1 on: Cohort 2211 and Cohort 2212 each ≤ BackupManager's";
        Optional<ExperimentResult> backup = failover(BACKUP);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        int compared = 0;
        if (backup.isPresent()) {
            long peerLost = backup.get().failover().sessionsLost();
            for (System cohort : List.of(COHORT_2211, COHORT_2212)) {
                Optional<ExperimentResult> run = failover(cohort);
                if (run.isPresent()) {
                    long lost = run.get().failover().sessionsLost();
                    parts.add("Cohort " + cohort.pattern() + ": " + lost);
                    met &= lost <= peerLost;
                    compared++;
                }
            }
            parts.add("BackupManager: " + peerLost);
        }
        if (compared == 0) {
            return new TargetResult(target, goal, "not measured: needs failover experiments of tomcat-backup and "
                    + "cohort 2211 or 2212", TargetResult.Status.NOT_MEASURED);
        }
        return new TargetResult(target, goal, String.join(", ", parts), TargetResult.Status.of(met));
    }

    TargetResult balancerGoal() {
        String target = "Cohort's balancer within 10 % of HAProxy's end-to-end throughput";
        String goal = "the same Cohort 2211 nodes behind each front, same load: Cohort's balancer pages/s ≥ "
                + Format.percent(BALANCER_SHARE) + " of HAProxy's";
        Optional<ExperimentResult> cohort = steady(COHORT_BEHIND_BALANCER);
        Optional<ExperimentResult> haproxy = steady(COHORT_BEHIND_HAPROXY);
        if (cohort.isEmpty() || haproxy.isEmpty() || haproxy.get().summary().pagesPerSecond() <= 0) {
            return new TargetResult(target, goal, "not measured: needs steady cohort 2211 and cohort-haproxy 2211 "
                    + "experiments", TargetResult.Status.NOT_MEASURED);
        }
        double ours = cohort.get().summary().pagesPerSecond();
        double theirs = haproxy.get().summary().pagesPerSecond();
        return new TargetResult(target, goal, "Cohort's balancer " + Format.number(ours, 1) + " pages/s, HAProxy "
                + Format.number(theirs, 1) + " pages/s: " + Format.percent(ours / theirs) + " of HAProxy's",
                TargetResult.Status.of(ours >= BALANCER_SHARE * theirs));
    }
}
