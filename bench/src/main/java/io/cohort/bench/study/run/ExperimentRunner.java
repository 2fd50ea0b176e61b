package io.cohort.bench.study.run;

import io.cohort.bench.study.driver.DriverSettings;
import io.cohort.bench.study.driver.LoadDriver;
import io.cohort.bench.study.driver.LoadStats;
import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.sut.SystemUnderTest;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one experiment: starts its system, loads it (warm-up, then the measurement window) while sampling the
 * nodes, kills a node in the middle of the window for a failover experiment, and stops everything it started
 * whatever happens.
 */
final class ExperimentRunner {

    /** Starts the system an experiment loads. */
    interface Systems {
        SystemUnderTest start(ExperimentSpec spec, Cleanup cleanup) throws Exception;
    }

    private final Systems systems;
    private final int accounts;
    private final long seed;
    private final Cleanup cleanup;

    ExperimentRunner(Systems systems, int accounts, long seed, Cleanup cleanup) {
        this.systems = systems;
        this.accounts = accounts;
        this.seed = seed;
        this.cleanup = cleanup;
    }

    ExperimentResult run(ExperimentSpec spec, Progress progress) throws Exception {
        progress.phase("starting " + spec.nodes() + " node(s)");
        SystemUnderTest system = systems.start(spec, cleanup);
        LoadDriver driver = null;
        NodeSampler sampler = null;
        try {
            DriverSettings settings = DriverSettings.study(system.shops(), spec.users(), accounts,
                    seed ^ spec.id().hashCode());
            progress.phase("warm-up");
            driver = cleanup.add(LoadDriver.start(settings, spec.warmup(), spec.duration()));
            LoadStats stats = driver.stats();
            sampler = cleanup.add(new NodeSampler(system.nodes(), stats.origin()));
            sampler.start();
            Kill kill = drive(spec, system, stats, progress);
            progress.phase("finishing pages in flight");
            driver.awaitEnd();
            List<NodeSample> samples = sampler.stop();
            return result(spec, system, stats, samples, kill);
        } finally {
            if (sampler != null) {
                cleanup.close(sampler);
            }
            if (driver != null) {
                cleanup.close(driver);
            }
            progress.phase("stopping the cluster");
            cleanup.close(system);
        }
    }

    /** A node killed at a second of the window. */
    private record Kill(String node, double second) {
    }

    /** Reports progress once a second until the window ends; kills a node in its middle for a failover run. */
    private Kill drive(ExperimentSpec spec, SystemUnderTest system, LoadStats stats, Progress progress)
            throws InterruptedException {
        long end = stats.origin() + spec.duration().toNanos();
        long killAt = stats.origin() + spec.duration().toNanos() / 2;
        Kill kill = null;
        boolean measuring = false;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            long next = Math.min(end, now + TimeUnit.SECONDS.toNanos(1));
            if (spec.failover() && kill == null) {
                next = Math.min(next, Math.max(now, killAt));
            }
            TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
            if (!measuring && System.nanoTime() >= stats.origin()) {
                measuring = true;
                progress.phase("measuring");
            }
            if (spec.failover() && kill == null && System.nanoTime() >= killAt) {
                double second = stats.secondsSinceOrigin(System.nanoTime());
                String node = system.killOneNode();
                kill = new Kill(node, second);
                progress.phase("node " + node + " killed (SIGKILL)");
            }
            tick(stats, progress);
        }
        return kill;
    }

    private static void tick(LoadStats stats, Progress progress) {
        List<SecondCounts> seconds = stats.seconds();
        long current = (long) Math.floor(stats.secondsSinceOrigin(System.nanoTime()));
        long lastPages = seconds.stream().filter(s -> s.second() == current - 1).mapToLong(SecondCounts::pages)
                .sum();
        List<SecondCounts> window = seconds.stream().filter(s -> s.second() >= 0).toList();
        progress.tick(lastPages, window.stream().mapToLong(SecondCounts::errors).sum(),
                window.stream().mapToLong(SecondCounts::sessionsLost).sum());
    }

    private static ExperimentResult result(ExperimentSpec spec, SystemUnderTest system, LoadStats stats,
            List<NodeSample> samples, Kill kill) {
        List<String> notes = new ArrayList<>();
        notes.add("system: " + system.description());
        if (system.nodes().stream().allMatch(n -> n.metrics().isEmpty())) {
            notes.add("interconnect: not measured (the nodes expose no byte counter)");
        }
        notes.add("load: " + spec.users() + " virtual users (" + spec.usersPerNode() + " per node, "
                + spec.load() + "), think time 300 ms ± 100 ms, through " + system.shops().size() + " balancer(s)");
        List<String> exited = new ArrayList<>(system.exitedNodes());
        if (kill != null) {
            exited.remove(kill.node());
        }
        if (!exited.isEmpty()) {
            notes.add("node(s) exited unexpectedly during the run: " + exited);
        }
        stats.failureExamples().forEach(example -> notes.add("failed scenarios: " + example));
        FailoverOutcome failover = kill == null ? null
                : FailoverAnalysis.analyse(stats.windowSeconds(), kill.node(), kill.second(), spec.nodes());
        if (spec.failover() && kill == null) {
            notes.add("no node was killed: the window ended first");
        }
        return new ExperimentResult(spec, ResultAssembly.summary(stats, spec.duration(), samples,
                system.nodes().stream().anyMatch(n -> n.metrics().isPresent())),
                ResultAssembly.timeline(stats, spec.duration()), samples, failover, notes);
    }
}
