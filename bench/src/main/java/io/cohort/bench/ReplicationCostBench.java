package io.cohort.bench;

import io.cohort.bench.replication.AsyncReplicationCost;
import io.cohort.bench.replication.AsyncReplicationCost.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * CPU per asynchronously replicated change in two configurations, measured side by side: each round measures
 * both, in an order that alternates from round to round, each on a fresh pair of members
 * ({@link AsyncReplicationCost}); the verdict is the median of the per-round ratios. A first, unrecorded
 * measurement warms the JVM. Writes {@code results.csv} and {@code summary.md}.
 *
 * <p>Comparisons ({@code --compare}): {@code bundling}, frame bundling ({@code batch-size} 64, the default)
 * against one change per message ({@code batch-size} 1); {@code processing}, JGroups delivering regular
 * messages on the connection's receiver thread ({@code message_processing_policy="direct"}) against handing
 * them to its thread pool ({@code max}); {@code tls}, the default security ({@code SYM_ENCRYPT} over {@code TCP_NIO2})
 * against {@code <security tls="true">}; {@code tuning}, any two variants given as {@code --a} and {@code --b}, each
 * {@code key=value} pairs separated by commas (stack placeholders such as {@code cohort.bundler_type}, and
 * {@code batch-size}; empty: the defaults).
 *
 * <pre>
 * java -cp ... io.cohort.bench.ReplicationCostBench [out-dir] [--compare bundling|processing|tls|tuning] [--rounds 4]
 *     [--rate 3000] [--threads 8] [--sessions 800] [--warmup 15] [--window 20]
 * </pre>
 */
public final class ReplicationCostBench {

    private static final String POLICY = "cohort.message_processing_policy";

    /** One side of a comparison. */
    private record Variant(String label, int batchSize, Map<String, String> stackTuning, boolean tls) {
        Variant(String label, int batchSize, Map<String, String> stackTuning) {
            this(label, batchSize, stackTuning, false);
        }
    }

    private ReplicationCostBench() {
    }

    public static void main(String[] args) throws Exception {
        String compare = BenchArgs.text(args, "--compare", "bundling");
        Path out = Path.of(args.length > 0 && !args[0].startsWith("--") ? args[0]
                : "bench/results/replication-cost-" + compare).toAbsolutePath();
        Variant[] variants = switch (compare) {
            case "bundling" -> new Variant[] {new Variant("batch-size 64 (flush-interval 2 ms)", 64, Map.of()),
                new Variant("batch-size 1", 1, Map.of())};
            case "processing" -> new Variant[] {new Variant("direct", 64, Map.of(POLICY, "direct")),
                new Variant("max", 64, Map.of(POLICY, "max"))};
            case "tls" -> new Variant[] {new Variant("payloads encrypted (SYM_ENCRYPT, TCP_NIO2)", 64, Map.of()),
                new Variant("TLS (TCP, pd bundler)", 64, Map.of(), true)};
            case "tuning" -> new Variant[] {tuned(BenchArgs.text(args, "--a", "")), tuned(BenchArgs.text(args, "--b", ""))};
            default -> throw new IllegalArgumentException("--compare takes bundling, processing, tls or tuning: " + compare);
        };
        int rounds = BenchArgs.option(args, "--rounds", 4);
        int rate = BenchArgs.option(args, "--rate", 3000);
        int threads = BenchArgs.option(args, "--threads", 8);
        int sessions = BenchArgs.option(args, "--sessions", 800);
        Duration warmup = Duration.ofSeconds(BenchArgs.option(args, "--warmup", 15));
        Duration window = Duration.ofSeconds(BenchArgs.option(args, "--window", 20));
        Files.createDirectories(out);
        String loadBefore = MachineInfo.currentLoadAverage();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        // the JIT keeps compiling well past the first pair's warm-up: one whole measurement warms the JVM, unrecorded
        cost(variants[0], rate, threads, sessions).measure(warmup, window);
        List<Result[]> results = new ArrayList<>();
        StringBuilder csv = new StringBuilder("round,variant,changes,messages,cpu_seconds,seconds,bytes_sent,"
                + "cpu_us_per_change,changes_per_message,context_switches,switches_per_change\n");
        for (int round = 1; round <= rounds; round++) {
            int[] order = round % 2 == 1 ? new int[] {0, 1} : new int[] {1, 0};
            Result[] both = new Result[2];
            for (int v : order) {
                Result r = cost(variants[v], rate, threads, sessions).measure(warmup, window);
                both[v] = r;
                System.out.printf(Locale.ROOT, "round %d, %s: %d changes, %.2f per message, %.1f us CPU and %.2f context "
                        + "switches per change%n", round, variants[v].label(), r.changes(), r.changesPerMessage(),
                        r.cpuMicrosPerChange(), r.switchesPerChange());
                csv.append(String.format(Locale.ROOT, "%d,\"%s\",%d,%.0f,%.3f,%.3f,%.0f,%.2f,%.2f,%d,%.3f%n", round,
                        variants[v].label(), r.changes(), r.messages(), r.cpuSeconds(), r.seconds(), r.bytesSent(),
                        r.cpuMicrosPerChange(), r.changesPerMessage(), r.contextSwitches(), r.switchesPerChange()));
            }
            results.add(both);
        }
        Files.writeString(out.resolve("results.csv"), csv);
        String command = "bench/run-replication-cost.sh" + (args.length == 0 ? "" : " " + String.join(" ", args));
        Files.writeString(out.resolve("summary.md"), summary(variants, results, rate, threads, sessions, warmup, window,
                started, loadBefore, command));
        System.out.println(Files.readString(out.resolve("summary.md")));
    }

    /**
     * A variant given as {@code key=value} pairs separated by commas: JGroups stack placeholders ({@code cohort.*})
     * {@code batch-size}, {@code caller-sends} and {@code tls}; an empty text is the defaults.
     */
    private static Variant tuned(String spec) {
        Map<String, String> tuning = new LinkedHashMap<>();
        int batchSize = 64;
        boolean tls = false;
        for (String pair : spec.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            String[] kv = pair.split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("a tuning is key=value[,key=value...]: " + spec);
            }
            if (kv[0].equals("batch-size")) {
                batchSize = Integer.parseInt(kv[1]);
            } else if (kv[0].equals("tls")) {
                tls = Boolean.parseBoolean(kv[1]);
            } else {
                tuning.put(kv[0], kv[1]);
            }
        }
        return new Variant(spec.isBlank() ? "defaults" : spec, batchSize, Map.copyOf(tuning), tls);
    }

    private static AsyncReplicationCost cost(Variant variant, int rate, int threads, int sessions) {
        return new AsyncReplicationCost(variant.batchSize(), variant.stackTuning(), variant.tls(), rate, threads, sessions);
    }

    private static String summary(Variant[] variants, List<Result[]> results, int rate, int threads, int sessions,
            Duration warmup, Duration window, Instant started, String loadBefore, String command) {
        String a = variants[0].label();
        String b = variants[1].label();
        StringBuilder md = new StringBuilder("# Asynchronous replication: CPU per change, " + a + " vs " + b + "\n\n");
        md.append(String.format(Locale.ROOT, "Run %s, %s; load average before: %s. Command: `%s`.%n%n", started,
                MachineInfo.now(), loadBefore, command));
        md.append(String.format(Locale.ROOT, "Two members in one JVM over JGroups TCP on loopback, authenticated and encrypted "
                + "(payloads with AES as with tls=\"false\", or the connections with TLS in a TLS variant); onRequestEnd, modifiedAttributes, asynchronous, write-quota 1. %d request "
                + "threads offer %d changes/s over %d sessions, a search (5.2 KB) and the cart (0.9 KB) in turn; %d s warm-up "
                + "and %d s measured per variant, each on a fresh pair, after one unrecorded measurement that warms the JVM. "
                + "CPU is the whole process's (both members, and the request threads with their pacing) divided by the "
                + "changes the holder applied; context switches are the process's threads' (voluntary and not), per "
                + "change.%n%n", threads, rate, sessions, warmup.toSeconds(), window.toSeconds()));
        md.append("| round | " + a + ": µs CPU / change | changes / message | switches / change | " + b
                + ": µs CPU / change | changes / message | switches / change | " + a + " / " + b
                + " (CPU) |\n|---|---|---|---|---|---|---|---|\n");
        double[] ratios = new double[results.size()];
        for (int i = 0; i < results.size(); i++) {
            Result first = results.get(i)[0];
            Result second = results.get(i)[1];
            ratios[i] = first.cpuMicrosPerChange() / second.cpuMicrosPerChange();
            md.append(String.format(Locale.ROOT, "| %d | %.1f | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f %% |%n", i + 1,
                    first.cpuMicrosPerChange(), first.changesPerMessage(), first.switchesPerChange(),
                    second.cpuMicrosPerChange(), second.changesPerMessage(), second.switchesPerChange(),
                    100 * ratios[i]));
        }
        double[] sorted = ratios.clone();
        Arrays.sort(sorted);
        double median = Median.median(ratios);
        md.append(String.format(Locale.ROOT, "%nMedian of the per-round ratios: a change costs **%.1f %%** of the CPU with %s "
                + "that it costs with %s (range %.1f–%.1f %%).%n", 100 * median, a, b, 100 * sorted[0],
                100 * sorted[sorted.length - 1]));
        return md.toString();
    }
}
