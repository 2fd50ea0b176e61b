package io.cohort.bench;

import io.cohort.bench.study.run.DataSetSize;
import io.cohort.bench.study.run.InterleavedComparison;
import io.cohort.bench.study.run.InterleavedComparison.Settings;
import io.cohort.bench.study.run.InterleavedComparison.Window;
import io.cohort.bench.sut.NodeThreads;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Throughput of two replication patterns at the same load, compared in turns on two clusters that run side by
 * side ({@link InterleavedComparison}); each of B's turns is judged against the mean of the A turns just before and
 * after it, and the verdict is the median of those ratios. Writes {@code windows.csv} and {@code summary.md}.
 *
 * <pre>
 * java -cp ... io.cohort.bench.InterleavedBench [out-dir] [--patterns none,2211] [--nodes 2] [--load 250]
 *     [--window 40] [--settle 15] [--warmup-pairs 8] [--pairs 5] [--cohort-home distribution/target/cohort]
 *     [--a-node-options -Dname=value,...] [--b-node-options -Dname=value,...]
 * </pre>
 *
 * <p>{@code --a-node-options} and {@code --b-node-options} add JVM options to one side's node processes, so a pattern
 * can be compared with itself under two tunings (e.g. {@code --patterns 2211,2211 --b-node-options
 * -Dcohort.transport=TCP,-Dcohort.bundler_type=pd}).
 */
public final class InterleavedBench {

    /** The share of the loaded side's pages the idle side may serve in the measured parts before they overlap. */
    static final double OVERLAP_LIMIT = 0.05;

    /**
     * One of B's turns against the A turns around it.
     *
     * @param before  A's turn before
     * @param pattern B's turn
     * @param after   A's turn after
     */
    public record Pair(Window before, Window pattern, Window after) {
        /** B's throughput over the mean of A's two neighbouring turns. */
        public double ratio() {
            return pattern.pagesPerSecond() / ((before.pagesPerSecond() + after.pagesPerSecond()) / 2);
        }

        /** B's node CPU per page over the mean of A's. */
        public double cpuRatio() {
            return pattern.nodeCpuMillisPerPage()
                    / ((before.nodeCpuMillisPerPage() + after.nodeCpuMillisPerPage()) / 2);
        }
    }

    private InterleavedBench() {
    }

    public static void main(String[] args) throws Exception {
        List<String> patterns = List.of(BenchArgs.text(args, "--patterns", "none,2211").split(","));
        Path out = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0]
                : "bench/results/interleaved-" + String.join("-vs-", patterns)).toAbsolutePath();
        Path home = Path.of(BenchArgs.text(args, "--cohort-home", "distribution/target/cohort")).toAbsolutePath().normalize();
        Settings settings = new Settings(home, home.resolve("webapps").resolve("jpetstore.war"), DataSetSize.QUICK,
                patterns, List.of(nodeOptions(args, "--a-node-options"), nodeOptions(args, "--b-node-options")),
                BenchArgs.option(args, "--nodes", 2), BenchArgs.option(args, "--load", 250),
                Duration.ofSeconds(BenchArgs.option(args, "--window", 40)), Duration.ofSeconds(BenchArgs.option(args, "--settle", 15)),
                BenchArgs.option(args, "--warmup-pairs", 8), BenchArgs.option(args, "--pairs", 5), 2007, Duration.ofMinutes(3));
        if (!Files.isDirectory(home.resolve("lib"))) {
            throw new IllegalArgumentException("no built distribution in " + home
                    + "; build it (./mvnw -pl distribution -am package) or pass --cohort-home");
        }
        Files.createDirectories(out);
        String loadBefore = MachineInfo.currentLoadAverage();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        InterleavedComparison.Outcome outcome = InterleavedComparison.run(settings, out.resolve("work"), System.out);
        Instant ended = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<Window> windows = outcome.windows();
        Files.writeString(out.resolve("windows.csv"), csv(windows));
        String command = "bench/run-interleaved.sh" + (args.length == 0 ? "" : " " + String.join(" ", args));
        Files.writeString(out.resolve("summary.md"), summary(settings, windows, started, ended, loadBefore, command)
                + failures(settings.patterns(), outcome.failures()));
        System.out.println(Files.readString(out.resolve("summary.md")));
    }

    /** The comma-separated JVM options after {@code name}; none when it is absent. */
    static List<String> nodeOptions(String[] args, String name) {
        String given = BenchArgs.text(args, name, "");
        return given.isBlank() ? List.of() : List.of(given.split(","));
    }

    /** B's recorded turns, each with the recorded A turns on either side of it. */
    public static List<Pair> pairs(List<Window> windows) {
        List<Pair> pairs = new ArrayList<>();
        for (int k = 1; k + 1 < windows.size(); k++) {
            Window before = windows.get(k - 1);
            Window b = windows.get(k);
            Window after = windows.get(k + 1);
            if (k % 2 == 1 && before.recorded() && b.recorded() && after.recorded()) {
                pairs.add(new Pair(before, b, after));
            }
        }
        return pairs;
    }

    static String csv(List<Window> windows) {
        StringBuilder csv = new StringBuilder("turn,pattern,recorded,seconds,pages,pages_per_s,idle_side_pages,errors,"
                + "sessions_lost,node_cpu_s,node_cpu_ms_per_page,idle_side_node_cpu_s,bench_cpu_s,machine_busy,"
                + "node_context_switches,node_switches_per_page");
        for (NodeThreads kind : NodeThreads.values()) {
            csv.append(",node_cpu_ms_per_page_").append(kind.name().toLowerCase(Locale.ROOT));
        }
        csv.append(",replication_changes_sent,replication_messages_sent,replication_kb_sent_per_page,"
                + "replication_changes_per_message\n");
        for (Window w : windows) {
            csv.append(String.format(Locale.ROOT, "%d,%s,%b,%.0f,%d,%.2f,%d,%d,%d,%.2f,%.3f,%.2f,%.2f,%.3f,%d,%.2f",
                    w.index() + 1, w.pattern(), w.recorded(), w.seconds(), w.pages(), w.pagesPerSecond(), w.idlePages(),
                    w.errors(), w.sessionsLost(), w.nodeCpuSeconds(), w.nodeCpuMillisPerPage(), w.idleNodeCpuSeconds(),
                    w.benchCpuSeconds(), w.machineBusy(), w.nodeContextSwitches(), w.nodeSwitchesPerPage()));
            for (NodeThreads kind : NodeThreads.values()) {
                csv.append(String.format(Locale.ROOT, ",%.4f", w.nodeCpuMillisPerPage(kind)));
            }
            csv.append(String.format(Locale.ROOT, ",%.0f,%.0f,%.3f,%.2f", w.replicationSent().changes(),
                    w.replicationSent().messages(), w.kilobytesSentPerPage(), w.replicationSent().changesPerMessage()))
                    .append('\n');
        }
        return csv.toString();
    }

    static String summary(Settings settings, List<Window> windows, Instant started, Instant ended, String loadBefore,
            String command) {
        String a = settings.patterns().get(0);
        String b = settings.patterns().get(1);
        List<Pair> pairs = pairs(windows);
        StringBuilder md = new StringBuilder("# " + b + " against " + a + ", in turns on two clusters side by side\n\n");
        md.append(String.format(Locale.ROOT, "Run %s to %s, %s; load average before: %s. Command: `%s`.%n%n", started,
                ended, MachineInfo.now(), loadBefore, command));
        md.append(String.format(Locale.ROOT, "Two local clusters of %d node(s) each, one replicating with %s and one "
                + "with %s, on one embedded H2 database, each behind one Cohort balancer per host (roundrobin:local, "
                + "in the bench's JVM with both drivers). The load, %d closed-loop users per node (%d in all, the "
                + "study's scenario and think time), takes turns between the clusters: %d-second turns, A B A B … A, "
                + "the first %d s of each not measured (the other side's scenarios finish in it); %d warm-up pairs, "
                + "then %d recorded pairs. Each %s turn is compared with the mean of the %s turns before and after it.%n%n",
                settings.nodes(), a, b, settings.usersPerNode(), settings.nodes() * settings.usersPerNode(),
                settings.window().toSeconds(), settings.settle().toSeconds(), settings.warmupPairs(), settings.pairs(),
                b, a));
        for (int side = 0; side < 2; side++) {
            List<String> options = settings.nodeOptions().get(side);
            if (!options.isEmpty()) {
                md.append(String.format(Locale.ROOT, "%s's nodes (%s) ran with the JVM options `%s`.%n%n",
                        side == 0 ? "A" : "B", settings.patterns().get(side), String.join(" ", options)));
            }
        }
        md.append("| pair | " + a + " before (pages/s) | " + b + " (pages/s) | " + a + " after (pages/s) | "
                + b + " / " + a + " | node CPU ms/page " + a + " → " + b + " | node switches/page " + a + " → " + b
                + " | machine busy |\n|---|---|---|---|---|---|---|---|\n");
        double[] ratios = new double[pairs.size()];
        double[] cpuRatios = new double[pairs.size()];
        for (int i = 0; i < pairs.size(); i++) {
            Pair p = pairs.get(i);
            ratios[i] = p.ratio();
            cpuRatios[i] = p.cpuRatio();
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %.1f | %.1f | %.1f %% | %.3f → %.3f | %.1f → %.1f | %.0f %% |%n",
                    i + 1, p.before().pagesPerSecond(), p.pattern().pagesPerSecond(), p.after().pagesPerSecond(),
                    100 * p.ratio(), (p.before().nodeCpuMillisPerPage() + p.after().nodeCpuMillisPerPage()) / 2,
                    p.pattern().nodeCpuMillisPerPage(),
                    (p.before().nodeSwitchesPerPage() + p.after().nodeSwitchesPerPage()) / 2,
                    p.pattern().nodeSwitchesPerPage(), 100 * p.pattern().machineBusy()));
        }
        List<Window> recorded = windows.stream().filter(Window::recorded).toList();
        long errors = recorded.stream().mapToLong(Window::errors).sum();
        long lost = recorded.stream().mapToLong(Window::sessionsLost).sum();
        long idlePages = recorded.stream().mapToLong(Window::idlePages).sum();
        long pages = recorded.stream().mapToLong(Window::pages).sum();
        double minBusy = recorded.stream().mapToDouble(Window::machineBusy).min().orElse(Double.NaN);
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        md.append(String.format(Locale.ROOT, "%n**%s served %.1f %% of %s's pages/s** (median of %d pairs; range "
                + "%.1f–%.1f %%). Node CPU per page: %s %.1f %% of %s's (median). Recorded turns: %d errors, %d sessions "
                + "lost; the idle side served %d pages in the measured parts (%.2f %% of the loaded side's); the machine "
                + "was at least %.0f %% busy in every measured part.%n", b, 100 * Median.median(ratios), a, pairs.size(),
                sorted.length == 0 ? Double.NaN : 100 * sorted[0],
                sorted.length == 0 ? Double.NaN : 100 * sorted[sorted.length - 1], b, 100 * Median.median(cpuRatios), a,
                errors, lost, idlePages, pages == 0 ? 0 : 100.0 * idlePages / pages, 100 * minBusy));
        md.append(overlap(idlePages, pages, settings.settle()));
        md.append(String.format(Locale.ROOT, "Context switches of the nodes' threads per page (median of the recorded "
                + "turns): %s %.1f, %s %.1f.%n", a, medianSwitches(recorded, 0), b, medianSwitches(recorded, 1)));
        md.append(sentTraffic(recorded, a, b));
        md.append(Settling.of(recorded, pairs).paragraph(a, b));
        md.append(threadsTable(recorded, a, b));
        return md.toString();
    }

    /**
     * Why scenarios failed on each side, as the drivers recorded it over the whole run (warm-up turns included);
     * empty when none failed.
     */
    static String failures(List<String> patterns, List<List<String>> failures) {
        if (failures.stream().allMatch(List::isEmpty)) {
            return "";
        }
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nWhy scenarios failed (the whole run, warm-up "
                + "turns included; digits shown as #):%n%n"));
        for (int side = 0; side < failures.size(); side++) {
            List<String> lines = failures.get(side);
            md.append("- ").append(patterns.get(side)).append(": ")
                    .append(lines.isEmpty() ? "none" : String.join("; ", lines)).append(String.format("%n"));
        }
        return md.toString();
    }

    /**
     * A warning when the idle side served more than {@link #OVERLAP_LIMIT} of the loaded side's pages in the measured
     * parts (empty otherwise): its scenarios under way at the switch outlasted the settling time, so the measured parts
     * carried both clusters' load.
     */
    static String overlap(long idlePages, long pages, Duration settle) {
        if (pages == 0 || (double) idlePages / pages <= OVERLAP_LIMIT) {
            return "";
        }
        return String.format(Locale.ROOT, "%n**The turns overlapped:** the idle side served %.1f %% of the loaded side's "
                + "pages in the measured parts; scenarios under way at a switch ran past the %d s settling time, so each "
                + "measured part also carried the other cluster's load and its ratio mixes both sides. Run a longer "
                + "`--settle` or fewer users per node (`--load`).%n", 100.0 * idlePages / pages, settle.toSeconds());
    }

    /**
     * What each side's nodes sent for replication per page (medians of the recorded turns): changes, kilobytes and
     * changes per message; "not measured" for a side whose nodes have no replication counters (none) or no metrics.
     */
    static String sentTraffic(List<Window> recorded, String a, String b) {
        StringBuilder line = new StringBuilder("Sent for replication by the nodes (median of the recorded turns, their "
                + "`/metrics`): ");
        for (int side = 0; side < 2; side++) {
            int s = side;
            List<Window> turns = recorded.stream().filter(w -> w.index() % 2 == s).toList();
            double changes = finiteMedian(turns.stream().mapToDouble(Window::changesSentPerPage).toArray());
            double kilobytes = finiteMedian(turns.stream().mapToDouble(Window::kilobytesSentPerPage).toArray());
            double grouping = finiteMedian(turns.stream()
                    .mapToDouble(w -> w.replicationSent().changesPerMessage()).toArray());
            line.append(side == 0 ? a : b).append(' ');
            line.append(Double.isNaN(changes) ? "not measured"
                    : String.format(Locale.ROOT, "%.2f changes and %.2f KB per page, %.2f changes per message", changes,
                            kilobytes, grouping));
            line.append(side == 0 ? "; " : String.format(Locale.ROOT, ".%n"));
        }
        return line.toString();
    }

    /** The median of the finite values, NaN if there are none. */
    private static double finiteMedian(double[] values) {
        return Median.median(Arrays.stream(values).filter(Double::isFinite).toArray());
    }

    /** Where the nodes' CPU per page went, by kind of thread: medians of A's and of B's recorded turns. */
    static String threadsTable(List<Window> recorded, String a, String b) {
        StringBuilder md = new StringBuilder(String.format(Locale.ROOT, "%nWhere the nodes' CPU per page went, by "
                + "what the threads work on (ms per page, median of the recorded turns; `/proc/<pid>/task/*/stat`, "
                + "10 ms ticks):%n%n| threads | %s | %s | %s − %s |%n|---|---|---|---|%n", a, b, b, a));
        double totalA = 0;
        double totalB = 0;
        for (NodeThreads kind : NodeThreads.values()) {
            double inA = median(recorded, 0, kind);
            double inB = median(recorded, 1, kind);
            totalA += inA;
            totalB += inB;
            md.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %+.3f |%n", kind.name().toLowerCase(Locale.ROOT),
                    inA, inB, inB - inA));
        }
        md.append(String.format(Locale.ROOT, "| sum of the medians | %.3f | %.3f | %+.3f |%n", totalA, totalB,
                totalB - totalA));
        return md.toString();
    }

    private static double median(List<Window> turns, int side, NodeThreads kind) {
        return Median.median(turns.stream().filter(w -> w.index() % 2 == side)
                .mapToDouble(w -> w.nodeCpuMillisPerPage(kind)).toArray());
    }

    /** @param side 0 for A's turns (the even ones), 1 for B's */
    private static double medianSwitches(List<Window> turns, int side) {
        return Median.median(turns.stream().filter(w -> w.index() % 2 == side)
                .mapToDouble(Window::nodeSwitchesPerPage).toArray());
    }
}
