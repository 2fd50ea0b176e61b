package io.cohort.bench;

import io.cohort.bench.replication.HotPathBenchmark;
import io.cohort.bench.replication.LoopbackBenchmark;
import io.cohort.bench.replication.ShopChange;
import io.cohort.bench.replication.WireSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs the replication hot-path benchmarks (JMH) and writes {@code jmh.json} and {@code summary.md}
 * to the directory given as first argument. {@code --quick} shortens every run (a smoke run; its
 * figures are not worth quoting).
 *
 * <pre>java -cp ... io.cohort.bench.ReplicationHotPathBench bench/results/replication-hot-path [--quick]</pre>
 */
public final class ReplicationHotPathBench {

    private static final double FRAMING_TARGET_PERCENT = 10.0;

    private ReplicationHotPathBench() {
    }

    public static void main(String[] args) throws Exception {
        Path out = Path.of(args.length > 0 ? args[0] : "bench/results/replication-hot-path").toAbsolutePath();
        boolean quick = List.of(args).contains("--quick");
        Files.createDirectories(out);
        String loadBefore = MachineInfo.currentLoadAverage();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        List<WireSize> sizes = new ArrayList<>();
        for (ShopChange change : ShopChange.values()) {
            sizes.add(WireSize.measure(change));
        }

        int forks = 1;
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(HotPathBenchmark.class.getName() + ".")
                .include(LoopbackBenchmark.class.getName() + ".")
                .forks(forks).threads(1)
                .jvmArgsAppend("-Xms512m", "-Xmx512m", "-Djava.net.preferIPv4Stack=true", "-Dcohort.bench.out=" + out,
                        "-Dlogback.configurationFile=cohort-bench-logback.xml")
                .resultFormat(ResultFormatType.JSON).result(out.resolve("jmh.json").toString());
        String settings = "1 fork, 1 thread; in-process: 3 warm-up × 2 s, 5 measurements × 2 s; "
                + "loopback: 8 warm-up × 2 s, 5 measurements × 2 s";
        if (quick) {
            TimeValue time = TimeValue.milliseconds(500);
            options.warmupIterations(1).warmupTime(time).measurementIterations(1).measurementTime(time);
            settings = "1 fork, 1 thread, 1 warm-up × 500 ms, 1 measurement × 500 ms";
        }
        Collection<RunResult> results = new Runner(options.build()).run();

        String summary = new HotPathReport(results, sizes, loopbackMeters(out), MachineInfo.now(), loadBefore,
                MachineInfo.currentLoadAverage(), started, settings, quick).markdown();
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println(summary);
        System.out.println("Wrote " + out.resolve("summary.md") + " and " + out.resolve("jmh.json"));
    }

    private static Map<ShopChange, Properties> loopbackMeters(Path out) throws IOException {
        Map<ShopChange, Properties> meters = new HashMap<>();
        for (ShopChange change : ShopChange.values()) {
            Path file = out.resolve("loopback-" + change + ".properties");
            if (Files.exists(file)) {
                Properties p = new Properties();
                try (var in = Files.newBufferedReader(file)) {
                    p.load(in);
                }
                meters.put(change, p);
            }
        }
        return meters;
    }

    static double framingTarget() {
        return FRAMING_TARGET_PERCENT;
    }
}
