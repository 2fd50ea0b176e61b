package io.cohort.bench.study.report;

import io.cohort.bench.MachineInfo;
import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.study.model.RunFolder;
import io.cohort.bench.study.model.RunManifest;
import io.cohort.bench.study.model.Summary;
import io.cohort.bench.study.model.ThroughputPoint;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Builds a run's experiments in code, with the shape a test needs, as {@link RunData} or as a run folder. */
final class SyntheticRun {

    static final int MEDIUM_USERS = 350;
    static final int HIGH_USERS = 700;
    private static final int SECONDS = 20;

    private final List<ExperimentResult> results = new ArrayList<>();

    /**
     * A run with the study's shapes at 1, 2 and 4 nodes and both loads: replication costs a little
     * throughput, bytes order onShutdown ≪ onRequestEnd &lt; onSetAttribute, modified &lt; all, quotas
     * 1 : 2 : 3 at 4 nodes and equal at 2, sync slower than async; plus failover runs of 2212 and 2211.
     */
    static SyntheticRun studyShaped() {
        SyntheticRun run = new SyntheticRun();
        for (String load : List.of("medium", "high")) {
            double scale = load.equals("high") ? 1.8 : 1.0;
            double slow = load.equals("high") ? 2.0 : 1.0;
            run.add("none", 1, load, 100 * scale, 10 * slow, 40, 0);
            for (int n : List.of(2, 4)) {
                double base = 99 * n * scale;
                run.add("none", n, load, base, 10.2 * slow, 40, 0);
                run.add("2211", n, load, base * 0.97, 10.5 * slow * slow, 46, 2000);
                run.add("1211", n, load, base * 0.96, 10.6 * slow * slow, 46, 2050);
                run.add("2111", n, load, base * 0.86, 12 * slow * slow * 1.5, 55, 2600);
                run.add("2311", n, load, base * 0.99, 10.2 * slow, 41, 70);
                run.add("2221", n, load, base * 0.80, 13 * slow * slow * 2, 60, 5000);
                run.add("2212", n, load, base * 0.96, 11 * slow * slow, 48, 2030);
                run.add("2112", n, load, base * (load.equals("high") ? 0.60 : 0.84), 25 * slow * slow, 58, 2700);
                run.add("2211wq2", n, load, base * (n == 2 ? 0.97 : 0.86), 11 * slow, n == 2 ? 46 : 49,
                        n == 2 ? 2000 : 4000);
                run.add("2211wq3", n, load, base * (n == 2 ? 0.97 : 0.82), 11.5 * slow, n == 2 ? 46 : 52,
                        n == 2 ? 2000 : 6000);
                run.add("3211", n, load, base * 0.7, 20 * slow, 45, 800);
            }
        }
        run.failover("2212", 2, "medium", 190, 0);
        run.failover("2211", 2, "medium", 190, 3);
        return run;
    }

    /** A steady Cohort experiment with these measures; timeline and node samples consistent with them. */
    SyntheticRun add(String pattern, int nodes, String load, double pagesPerSecond, double meanMs, double cpu,
            double kbps) {
        return add("cohort", pattern, nodes, load, pagesPerSecond, meanMs, cpu, kbps, List.of());
    }

    SyntheticRun add(String target, String pattern, int nodes, String load, double pagesPerSecond, double meanMs,
            double cpu, double kbps, List<String> notes) {
        ExperimentSpec spec = spec(target, pattern, nodes, load, false);
        results.add(new ExperimentResult(spec, summary(pagesPerSecond, meanMs, cpu, kbps, 0), timeline(pagesPerSecond,
                meanMs, Double.NaN), samples(nodes, cpu, kbps), null, notes));
        return this;
    }

    /** Round {@code round} of a steady Cohort experiment measured in several rounds. */
    SyntheticRun addRound(String pattern, int nodes, String load, int round, double pagesPerSecond) {
        ExperimentSpec once = spec("cohort", pattern, nodes, load, false);
        ExperimentSpec spec = new ExperimentSpec(once.id() + "-r" + round, once.target(), pattern, nodes,
                once.usersPerNode(), load, once.warmup(), once.duration(), false, round);
        results.add(new ExperimentResult(spec, summary(pagesPerSecond, 200, 80, 1000, 0),
                timeline(pagesPerSecond, 200, Double.NaN), samples(nodes, 80, 1000), null, List.of()));
        return this;
    }

    /** A steady experiment of a system whose nodes had no interconnect byte counter (e.g. Jetty JDBC). */
    SyntheticRun addUnmeasuredInterconnect(String target, String pattern, int nodes, String load,
            double pagesPerSecond, double meanMs, double cpu) {
        ExperimentSpec spec = spec(target, pattern, nodes, load, false);
        Summary measured = summary(pagesPerSecond, meanMs, cpu, 0, 0);
        Summary summary = new Summary(measured.pages(), measured.pagesPerSecond(), measured.meanMs(), measured.p50Ms(),
                measured.p90Ms(), measured.p99Ms(), measured.maxMs(), 0, measured.scenarios(), 0, cpu, 0, true);
        results.add(new ExperimentResult(spec, summary, timeline(pagesPerSecond, meanMs, Double.NaN),
                samples(nodes, cpu, 0), null, List.of()));
        return this;
    }

    /** A failover experiment that killed node n2 at second 10. */
    SyntheticRun failover(String pattern, int nodes, String load, double pagesPerSecond, long sessionsLost) {
        return failover("cohort", pattern, nodes, load, pagesPerSecond, sessionsLost);
    }

    /** A failover experiment of a target that killed node n2 at second 10. */
    SyntheticRun failover(String target, String pattern, int nodes, String load, double pagesPerSecond,
            long sessionsLost) {
        ExperimentSpec spec = spec(target, pattern, nodes, load, true);
        results.add(new ExperimentResult(spec, summary(pagesPerSecond, 20, 60, 100, sessionsLost),
                timeline(pagesPerSecond, 20, 10), samples(nodes, 60, 100),
                new FailoverOutcome("n2", 10, sessionsLost, 7, 3.0), List.of()));
        return this;
    }

    RunData data() {
        return new RunData(manifest(), results);
    }

    /** Writes the run folder through the model's own writer. */
    Path write(Path dir) {
        RunFolder folder = new RunFolder(dir);
        folder.writeManifest(manifest());
        results.forEach(folder::writeExperiment);
        return dir;
    }

    private RunManifest manifest() {
        return new RunManifest("cohort bench --preset quick", Instant.parse("2026-11-21T10:00:00Z"),
                Instant.parse("2026-11-21T11:00:00Z"), new MachineInfo("jdk 17", "Linux", "test cpu", 2, "1.0 1.0 1.0"),
                "quick", results.stream().map(ExperimentResult::spec).toList());
    }

    private static ExperimentSpec spec(String target, String pattern, int nodes, String load, boolean failover) {
        int users = load.equals("high") ? HIGH_USERS : MEDIUM_USERS;
        String id = target + "-" + pattern + "-n" + nodes + "-" + load + (failover ? "-failover" : "");
        return new ExperimentSpec(id, target, pattern, nodes, users, load, Duration.ofSeconds(5),
                Duration.ofSeconds(SECONDS), failover);
    }

    private static Summary summary(double pagesPerSecond, double meanMs, double cpu, double kbps, long lost) {
        long pages = Math.round(pagesPerSecond * SECONDS);
        return new Summary(pages, pagesPerSecond, meanMs, meanMs * 0.9, meanMs * 1.8, meanMs * 3, meanMs * 5, 0,
                pages / 10, lost, cpu, kbps);
    }

    private static List<ThroughputPoint> timeline(double pagesPerSecond, double meanMs, double killedAt) {
        List<ThroughputPoint> points = new ArrayList<>();
        for (int second = -5; second < SECONDS; second++) {
            boolean dip = !Double.isNaN(killedAt) && second >= killedAt && second < killedAt + 3;
            long pages = Math.round(pagesPerSecond * (dip ? 0.4 : 1.0) * (1 + 0.03 * Math.sin(second)));
            points.add(new ThroughputPoint(second, pages, dip ? 5 : 0, meanMs, dip ? 2 : 0));
        }
        return points;
    }

    private static List<NodeSample> samples(int nodes, double cpu, double kbps) {
        List<NodeSample> samples = new ArrayList<>();
        for (int second = -5; second < SECONDS; second++) {
            for (int node = 1; node <= nodes; node++) {
                double wobble = 1 + 0.05 * Math.sin(second + node);
                samples.add(new NodeSample("n" + node, second, cpu * wobble, kbps * wobble));
            }
        }
        return samples;
    }
}
