package io.cohort.bench;

import io.cohort.bench.balancer.HelloTarget;
import io.cohort.bench.balancer.Measurement;
import io.cohort.bench.balancer.Measurement.Load;
import io.cohort.bench.balancer.Measurement.Target;
import io.cohort.bench.balancer.OverheadReport;
import io.cohort.bench.balancer.Wrk;
import io.cohort.bench.balancer.WrkResult;
import io.cohort.bench.peers.HaproxyFront;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Throughput and latency of a small servlet answer through Cohort's balancer versus straight to the
 * node, and through HAProxy as the reference for what any proxy costs on the same cores, measured side by
 * side in one run with the same client: a node ({@code CohortNode}) serving a 100-byte text and a
 * {@code BalancerServer} in front of it run in this JVM, HAProxy in its own process; {@code wrk} loads the
 * three targets in turn, in an order that alternates from round to round. Writes raw wrk output, a CSV
 * and a Markdown summary to the output directory. Needs {@code wrk} and {@code haproxy} on the PATH.
 *
 * <pre>
 * java -cp ... io.cohort.bench.BalancerOverheadBench [out-dir] [--rounds 3] [--duration 10] [--warmup 15]
 *     [--threads 2] [--connections 32]
 * </pre>
 */
public final class BalancerOverheadBench {

    private BalancerOverheadBench() {
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        if (!Wrk.installed()) {
            System.err.println(Wrk.INSTALL_HINT);
            System.exit(2);
        }
        if (!haproxyInstalled()) {
            System.err.println("HAProxy is not installed (the reference proxy): on Debian/Ubuntu, apt-get install -y haproxy,"
                    + " or name its executable in " + HaproxyFront.EXECUTABLE_ENV);
            System.exit(2);
        }
        Path out = options.out.toAbsolutePath();
        Path raw = out.resolve("raw");
        Files.createDirectories(raw);
        try (var stale = Files.list(raw)) {
            for (Path file : stale.toList()) {
                Files.delete(file);
            }
        }
        String loadBefore = MachineInfo.currentLoadAverage();
        Instant started = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        Map<Load, Wrk> clients = new EnumMap<>(Load.class);
        clients.put(Load.SATURATING, new Wrk(options.threads, options.connections, Duration.ofSeconds(options.duration)));
        clients.put(Load.SINGLE, new Wrk(1, 1, Duration.ofSeconds(options.duration)));
        Wrk warmup = new Wrk(options.threads, options.connections, Duration.ofSeconds(options.warmup));
        List<Measurement> measurements = new ArrayList<>();

        try (HelloTarget servers = HelloTarget.start()) {
            System.out.println(Arrays.stream(Target.values()).map(t -> t.label() + " " + servers.uri(t))
                    .collect(Collectors.joining(", ")));
            for (Target target : Target.values()) {
                System.out.println("warm-up " + target.label() + " " + options.warmup + " s");
                Files.writeString(raw.resolve("warmup-" + target.label() + ".txt"), warmup.run(servers.uri(target)));
            }
            for (int round = 1; round <= options.rounds; round++) {
                List<Target> order = new ArrayList<>(List.of(Target.values()));
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                int position = 0;
                for (Load load : Load.values()) {
                    Wrk wrk = clients.get(load);
                    for (Target target : order) {
                        position++;
                        double cpuBefore = servers.serverCpuSeconds();
                        String output = wrk.run(servers.uri(target));
                        double cpuSeconds = servers.serverCpuSeconds() - cpuBefore;
                        Files.writeString(raw.resolve("round-" + round + "-" + load.name().toLowerCase(Locale.ROOT) + "-"
                                + target.label() + ".txt"), String.join(" ", wrk.command(servers.uri(target))) + "\n" + output);
                        WrkResult result = WrkResult.parse(output);
                        Measurement m = new Measurement(round, position, load, target, result,
                                cpuSeconds * 1e6 / Math.max(1, result.requests()));
                        measurements.add(m);
                        System.out.printf(Locale.ROOT,
                                "round %d %-17s %-8s %,10.0f req/s  p50 %.3f ms  p99 %.3f ms  server CPU %.0f us/request%n",
                                round, load.label(), target.label(), result.requestsPerSecond(), result.p50Millis(),
                                result.p99Millis(), m.serverCpuMicrosPerRequest());
                    }
                }
            }
        }

        Files.writeString(out.resolve("results.csv"), Measurement.csvHeader() + "\n"
                + measurements.stream().map(Measurement::csv).collect(Collectors.joining("\n")) + "\n");
        String setup = String.format(Locale.ROOT, """
                - One JVM runs a Cohort node (`CohortNode`, one application `hello.war`: a servlet answering GET \
                `/hello/hi` with 100 bytes of `text/plain`, no session) and a `BalancerServer` in front of it \
                (`BalancerConfig.defaults(one member).withPorts(0, 0)`: policy roundrobin:local, keep-alive pool \
                of at most 64 connections to the member, health checks every 2 s).
                - HAProxy (`haproxy -db`, its default threads, the configuration the peer comparison uses: \
                `HaproxyConfig`, HTTP mode, keep-alive, route-suffix stickiness, a health check every second) \
                in its own process in front of the same node: the reference for what a proxy costs on these cores.
                - All listen on 127.0.0.1; wrk uses HTTP/1.1 keep-alive connections; both proxies reach the node \
                over their own kept-alive connections. Server CPU counts the JVM (node and balancer) and HAProxy.
                - %d rounds; each round runs wrk against each target under each load (%d s each; the order of the \
                targets alternates from round to round), after one unrecorded saturating warm-up of %d s per target.""",
                options.rounds, options.duration, options.warmup);
        OverheadReport report = new OverheadReport(measurements);
        String summary = report.markdown(options.command(), clients, MachineInfo.now(), loadBefore,
                MachineInfo.currentLoadAverage(), started, setup);
        Files.writeString(out.resolve("summary.md"), summary);
        System.out.println();
        System.out.println(summary);
        System.out.println("Wrote " + out);
    }

    private static boolean haproxyInstalled() {
        try {
            Process version = new ProcessBuilder(HaproxyFront.executable(), "-v").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return version.waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Command-line options with the defaults the committed results use. */
    private static final class Options {
        Path out = Path.of("bench/results/balancer-overhead");
        int rounds = 3;
        int duration = 10;
        int warmup = 15;
        int threads = 2;
        int connections = 32;
        private final List<String> given = new ArrayList<>();

        static Options parse(String[] args) {
            Options o = new Options();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                if (!arg.startsWith("--")) {
                    o.out = Path.of(arg);
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(arg + " needs a value");
                }
                int value = Integer.parseInt(args[++i]);
                o.given.add(arg + " " + value);
                switch (arg) {
                    case "--rounds" -> o.rounds = value;
                    case "--duration" -> o.duration = value;
                    case "--warmup" -> o.warmup = value;
                    case "--threads" -> o.threads = value;
                    case "--connections" -> o.connections = value;
                    default -> throw new IllegalArgumentException("unknown option " + arg);
                }
            }
            return o;
        }

        String command() {
            return ("bench/run-balancer-overhead.sh " + String.join(" ", given)).trim();
        }
    }
}
