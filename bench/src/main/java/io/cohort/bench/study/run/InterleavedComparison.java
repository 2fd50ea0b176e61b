package io.cohort.bench.study.run;

import io.cohort.bench.study.driver.DriverSettings;
import io.cohort.bench.study.driver.LoadDriver;
import io.cohort.bench.study.driver.LoadStats;
import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.sut.ContextSwitches;
import io.cohort.bench.sut.NodeProbe;
import io.cohort.bench.sut.NodeThreads;
import io.cohort.bench.sut.ProcessCpu;
import io.cohort.bench.sut.SystemUnderTest;
import io.cohort.bench.sut.ThreadCpu;
import io.cohort.cli.cluster.EmbeddedH2Server;
import java.io.IOException;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two local clusters compared at the same time on the same machine: both start (each as {@code cohort bench}
 * starts one, on one shared embedded H2 database) and stay up, and the load takes turns between them in windows
 * of equal length, A B A B … A. Each cluster has its own driver with the same number of users; a driver's users
 * start a scenario only in their cluster's turn (one under way runs to its end), so after a switch the other
 * cluster's users finish their scenarios and fall idle. Only the part of a window after the settling time is
 * measured. Both clusters' JVMs stay warm and see the same machine, minute by minute, so a slow spell of the
 * machine (these VMs drift by a quarter between minutes) hits both sides of a pair alike; separate experiments
 * one after the other cannot give that.
 *
 * <p>Stops everything it started, also on failure and on Ctrl-C.
 */
public final class InterleavedComparison {

    /** How long the drivers ramp their users up before the first window counts. */
    private static final Duration DRIVER_RAMP = Duration.ofSeconds(20);
    private static final HttpClient METRICS_CLIENT = HttpClient.newBuilder().connectTimeout(SentTraffic.READ_TIMEOUT)
            .build();

    /**
     * What to compare and how.
     *
     * @param cohortHome   the built distribution the nodes run from
     * @param shopWar      the shop WAR
     * @param dataSet      the benchmark data set
     * @param patterns     the two patterns, A then B (e.g. {@code none}, {@code 2211})
     * @param nodeOptions  per side, A then B: JVM options added to that cluster's node processes (e.g.
     *                     {@code -Dcohort.transport=TCP}), so one pattern can be compared under two tunings
     * @param nodes        nodes per cluster
     * @param usersPerNode closed-loop users per node of the cluster whose turn it is
     * @param window       length of one turn
     * @param settle       the start of each turn that is not measured (the other side's scenarios finish in it)
     * @param warmupPairs  A-B pairs of turns run first and not recorded
     * @param pairs        recorded pairs; one more A turn closes the run, so every B turn has an A turn each side
     * @param seed         seed of the users' random choices
     * @param startTimeout how long a cluster may take to come up
     */
    public record Settings(Path cohortHome, Path shopWar, DataSetSize dataSet, List<String> patterns,
            List<List<String>> nodeOptions, int nodes, int usersPerNode, Duration window, Duration settle, int warmupPairs, int pairs, long seed,
            Duration startTimeout) {
        public Settings {
            patterns = List.copyOf(patterns);
            if (patterns.size() != 2) {
                throw new IllegalArgumentException("an interleaved comparison takes exactly two patterns: " + patterns);
            }
            nodeOptions = nodeOptions.stream().map(List::copyOf).toList();
            if (nodeOptions.size() != 2) {
                throw new IllegalArgumentException("node options are given per side, A and B: " + nodeOptions);
            }
            for (List<String> side : nodeOptions) {
                for (String option : side) {
                    if (!option.startsWith("-D") && !option.startsWith("-X")) {
                        throw new IllegalArgumentException("a node option is a -D or -X JVM option: " + option);
                    }
                }
            }
            if (nodes < 1 || usersPerNode < 1 || pairs < 1 || warmupPairs < 0) {
                throw new IllegalArgumentException("nodes, users per node and pairs must be ≥ 1, warm-up pairs ≥ 0");
            }
            if (window.toSeconds() < 2 || settle.isNegative() || settle.compareTo(window) >= 0
                    || window.toNanos() % 1_000_000_000L != 0 || settle.toNanos() % 1_000_000_000L != 0) {
                throw new IllegalArgumentException("window and settle are whole seconds, settle shorter than the window: "
                        + window + ", " + settle);
            }
            Objects.requireNonNull(cohortHome, "cohortHome");
            Objects.requireNonNull(shopWar, "shopWar");
        }

        int windows() {
            return 2 * (warmupPairs + pairs) + 1;
        }
    }

    /**
     * One turn.
     *
     * @param index           from 0; even turns are A's
     * @param pattern         the pattern whose turn it was
     * @param recorded        false for the warm-up turns
     * @param seconds         length of the measured part
     * @param pages           pages the loaded cluster served in the measured part
     * @param idlePages       pages the other cluster served meanwhile (scenarios that outlived the settling time)
     * @param errors          failed pages of the loaded cluster in the measured part
     * @param sessionsLost    scenarios of the loaded cluster that found their session lost or stale
     * @param nodeCpuSeconds  CPU time of the loaded cluster's node processes in the measured part
     * @param idleNodeCpuSeconds CPU time of the other cluster's node processes meanwhile
     * @param benchCpuSeconds CPU time of this process (both drivers and all balancers)
     * @param machineBusy     share of the machine's CPU time that was busy (from {@code /proc/stat}), 0–1
     * @param nodeContextSwitches context switches of the loaded cluster's node processes' threads in the measured part
     *                        ({@link ContextSwitches})
     * @param nodeCpuByThreads the loaded cluster's node CPU seconds in the measured part, by what the threads work on
     *                        ({@link ThreadCpu}); sums to about {@code nodeCpuSeconds}
     * @param replicationSent what the loaded cluster's nodes sent for replication in the measured part (their
     *                        {@code /metrics}); NaN values where not measured
     */
    public record Window(int index, String pattern, boolean recorded, double seconds, long pages, long idlePages,
            long errors, long sessionsLost, double nodeCpuSeconds, double idleNodeCpuSeconds, double benchCpuSeconds,
            double machineBusy, long nodeContextSwitches, Map<NodeThreads, Double> nodeCpuByThreads,
            SentTraffic replicationSent) {

        public Window {
            nodeCpuByThreads = Map.copyOf(nodeCpuByThreads);
            Objects.requireNonNull(replicationSent, "replicationSent");
        }

        /** Replication changes the loaded cluster's nodes sent per page; NaN when not measured. */
        public double changesSentPerPage() {
            return pages == 0 ? Double.NaN : replicationSent.changes() / pages;
        }

        /** Replication kilobytes (1,000 bytes) the loaded cluster's nodes sent per page; NaN when not measured. */
        public double kilobytesSentPerPage() {
            return pages == 0 ? Double.NaN : replicationSent.bytes() / 1000 / pages;
        }

        public double pagesPerSecond() {
            return pages / seconds;
        }

        /** Node CPU milliseconds per page of the loaded cluster. */
        public double nodeCpuMillisPerPage() {
            return pages == 0 ? Double.NaN : 1000 * nodeCpuSeconds / pages;
        }

        /** Context switches of the loaded cluster's nodes per page: the thread hand-offs a page takes there. */
        public double nodeSwitchesPerPage() {
            return pages == 0 ? Double.NaN : (double) nodeContextSwitches / pages;
        }

        /** Node CPU milliseconds per page of the loaded cluster spent by one kind of thread. */
        public double nodeCpuMillisPerPage(NodeThreads kind) {
            return pages == 0 ? Double.NaN : 1000 * nodeCpuByThreads.getOrDefault(kind, 0.0) / pages;
        }
    }

    private InterleavedComparison() {
    }

    /**
     * What a comparison measured.
     *
     * @param windows  every turn, in order
     * @param failures why scenarios failed, per side (A, B), over the whole run, warm-up turns included
     *                 ({@link io.cohort.bench.study.driver.LoadStats#failureExamples()})
     */
    public record Outcome(List<Window> windows, List<List<String>> failures) {
        public Outcome {
            windows = List.copyOf(windows);
            failures = failures.stream().map(List::copyOf).toList();
        }
    }

    /**
     * Runs the comparison; clusters live in {@code work} while it runs, which is removed afterwards unless the run
     * failed.
     */
    public static Outcome run(Settings settings, Path work, PrintStream out) throws Exception {
        Cleanup cleanup = new Cleanup();
        Thread hook = new Thread(cleanup::close, "cohort-interleaved-shutdown");
        Runtime.getRuntime().addShutdownHook(hook); // Ctrl-C stops the clusters too
        List<Window> windows;
        List<List<String>> failures = new ArrayList<>();
        try {
            Files.createDirectories(work);
            EmbeddedH2Server h2 = cleanup.add(EmbeddedH2Server.start(work.resolve("h2")));
            StudyEnvironment environment = new StudyEnvironment(work, settings.shopWar(), h2.database(),
                    StudyEnvironment.nodeJava(settings.cohortHome(), settings.dataSet()), settings.startTimeout(),
                    settings.dataSet().accounts());
            Duration total = settings.window().multipliedBy(settings.windows());
            List<SystemUnderTest> clusters = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                String pattern = settings.patterns().get(side);
                // a pattern may be compared with itself (the method's own spread): the side names the directory
                ExperimentSpec spec = new ExperimentSpec("interleaved-" + "ab".charAt(side) + "-" + pattern, "cohort",
                        pattern, settings.nodes(), settings.usersPerNode(), Integer.toString(settings.usersPerNode()),
                        DRIVER_RAMP, total, false);
                List<String> options = settings.nodeOptions().get(side);
                out.printf("starting %d node(s) replicating with %s%s ...%n", settings.nodes(), pattern,
                        options.isEmpty() ? "" : " (" + String.join(" ", options) + ")");
                clusters.add(LocalStudyCluster.start(spec, environment.withNodeOptions(options), cleanup::add));
            }
            AtomicInteger turn = new AtomicInteger(0);
            List<LoadDriver> drivers = new ArrayList<>();
            for (int side = 0; side < 2; side++) {
                int mine = side;
                DriverSettings driverSettings = DriverSettings.study(clusters.get(side).shops(),
                        settings.nodes() * settings.usersPerNode(), settings.dataSet().accounts(),
                        settings.seed() * 31 + side); // both sides differ even when the patterns do not
                drivers.add(cleanup.add(LoadDriver.start(driverSettings, DRIVER_RAMP, total,
                        () -> turn.get() == mine)));
            }
            windows = turns(settings, clusters, drivers, turn, out);
            drivers.forEach(driver -> failures.add(driver.stats().failureExamples()));
        } finally {
            cleanup.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs already
            }
        }
        WorkTrees.delete(work); // kept, with the node logs, when the run failed
        return new Outcome(windows, failures);
    }

    private static List<Window> turns(Settings settings, List<SystemUnderTest> clusters, List<LoadDriver> drivers,
            AtomicInteger turn, PrintStream out) throws InterruptedException {
        long base = drivers.get(0).stats().origin() - DRIVER_RAMP.toNanos();
        long window = settings.window().toNanos();
        long settle = settings.settle().toNanos();
        List<Window> windows = new ArrayList<>();
        for (int k = 0; k < settings.windows(); k++) {
            int side = k % 2;
            long start = base + k * window;
            sleepUntil(start);
            turn.set(side);
            sleepUntil(start + settle);
            CpuReading before = CpuReading.take(clusters);
            sleepUntil(start + window);
            CpuReading after = CpuReading.take(clusters);
            Counts loaded = Counts.between(drivers.get(side).stats(), start + settle, start + window);
            Counts idle = Counts.between(drivers.get(1 - side).stats(), start + settle, start + window);
            boolean recorded = k >= 2 * settings.warmupPairs();
            Window w = new Window(k, settings.patterns().get(side), recorded, (window - settle) / 1e9, loaded.pages,
                    idle.pages, loaded.errors, loaded.sessionsLost, CpuReading.nodeSeconds(before, after, side),
                    CpuReading.nodeSeconds(before, after, 1 - side), after.bench - before.bench,
                    CpuReading.busyShare(before, after), CpuReading.switches(before, after, side),
                    CpuReading.byThreads(before, after, side), after.traffic.get(side).since(before.traffic.get(side)));
            windows.add(w);
            out.printf(Locale.ROOT, "turn %2d/%d %-8s %s %7.1f pages/s, node CPU %.2f ms/page, %.1f switches/page, "
                    + "other side %d pages, machine %.0f %% busy%n", k + 1, settings.windows(), w.pattern(),
                    recorded ? "         " : "(warm-up)", w.pagesPerSecond(), w.nodeCpuMillisPerPage(),
                    w.nodeSwitchesPerPage(), w.idlePages(), 100 * w.machineBusy());
        }
        return windows;
    }

    private static void sleepUntil(long deadline) throws InterruptedException {
        long wait = deadline - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }

    /** Pages, errors and lost sessions a driver counted in whole seconds between two instants. */
    private record Counts(long pages, long errors, long sessionsLost) {
        static Counts between(LoadStats stats, long from, long to) {
            long first = Math.floorDiv(from - stats.origin() + 500_000_000L, 1_000_000_000L);
            long last = Math.floorDiv(to - stats.origin() + 500_000_000L, 1_000_000_000L);
            long pages = 0;
            long errors = 0;
            long lost = 0;
            for (SecondCounts s : stats.seconds()) {
                if (s.second() >= first && s.second() < last) {
                    pages += s.pages();
                    errors += s.errors();
                    lost += s.sessionsLost();
                }
            }
            return new Counts(pages, errors, lost);
        }
    }

    /**
     * CPU time by thread and context switches of each cluster's nodes (per node process id), CPU seconds of this
     * process, the machine's busy and total ticks, and what each cluster's nodes sent for replication (read last).
     */
    private record CpuReading(List<Map<Long, ThreadCpu>> threads, List<Map<Long, ContextSwitches>> switches,
            List<SentTraffic> traffic, double bench, long busyTicks, long totalTicks) {
        static CpuReading take(List<SystemUnderTest> clusters) {
            List<Map<Long, ThreadCpu>> threads = new ArrayList<>();
            List<Map<Long, ContextSwitches>> switches = new ArrayList<>();
            for (int i = 0; i < clusters.size(); i++) {
                Map<Long, ThreadCpu> cluster = new HashMap<>();
                Map<Long, ContextSwitches> clusterSwitches = new HashMap<>();
                for (NodeProbe node : clusters.get(i).nodes()) {
                    OptionalLong pid = node.pid();
                    if (pid.isPresent()) {
                        ThreadCpu.of(pid.getAsLong()).ifPresent(reading -> cluster.put(pid.getAsLong(), reading));
                        ContextSwitches.of(pid.getAsLong())
                                .ifPresent(reading -> clusterSwitches.put(pid.getAsLong(), reading));
                    }
                }
                threads.add(cluster);
                switches.add(clusterSwitches);
            }
            double bench = ProcessCpu.seconds(ProcessHandle.current().pid()).orElse(0);
            long[] machine = machineTicks();
            // after the CPU figures, which /proc gives at once: on a saturated machine the nodes' answers take seconds
            List<SentTraffic> traffic = new ArrayList<>();
            for (SystemUnderTest cluster : clusters) {
                traffic.add(SentTraffic.read(cluster.nodes(), METRICS_CLIENT));
            }
            return new CpuReading(threads, switches, traffic, bench, machine[0], machine[1]);
        }

        /** CPU seconds of one cluster's node processes between two readings (processes read both times). */
        static double nodeSeconds(CpuReading before, CpuReading after, int side) {
            return byThreads(before, after, side).values().stream().mapToDouble(Double::doubleValue).sum();
        }

        /** Context switches of one cluster's node processes between two readings (processes read both times). */
        static long switches(CpuReading before, CpuReading after, int side) {
            long total = 0;
            for (Map.Entry<Long, ContextSwitches> now : after.switches.get(side).entrySet()) {
                ContextSwitches then = before.switches.get(side).get(now.getKey());
                if (then != null) {
                    total += now.getValue().since(then);
                }
            }
            return total;
        }

        /** One cluster's node CPU seconds between two readings, by kind of thread. */
        static Map<NodeThreads, Double> byThreads(CpuReading before, CpuReading after, int side) {
            Map<NodeThreads, Double> total = new EnumMap<>(NodeThreads.class);
            after.threads.get(side).forEach((pid, now) -> {
                ThreadCpu then = before.threads.get(side).get(pid);
                if (then != null) {
                    now.since(then).forEach((kind, seconds) -> total.merge(kind, seconds, Double::sum));
                }
            });
            return total;
        }

        static double busyShare(CpuReading before, CpuReading after) {
            long total = after.totalTicks - before.totalTicks;
            return total <= 0 ? Double.NaN : (double) (after.busyTicks - before.busyTicks) / total;
        }

        /** Busy and total ticks of all CPUs ({@code /proc/stat}); idle and iowait count as not busy. */
        private static long[] machineTicks() {
            try {
                String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < Math.min(f.length, 9); i++) { // user … steal; guest time is inside user already
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
                return new long[] {total - idle, total};
            } catch (IOException | RuntimeException e) {
                return new long[] {0, 0};
            }
        }
    }
}
