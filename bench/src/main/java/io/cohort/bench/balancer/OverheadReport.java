package io.cohort.bench.balancer;

import static io.cohort.bench.Median.median;

import io.cohort.bench.MachineInfo;
import io.cohort.bench.balancer.Measurement.Load;
import io.cohort.bench.balancer.Measurement.Target;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleBinaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * The Markdown summary of a balancer-overhead run: medians over the rounds for each load and target,
 * and the paired per-round comparisons of each proxy with direct and of Cohort's balancer with HAProxy
 * (each round measures every target back to back, so the machine state is as similar as it gets). Throughput is judged under the saturating load, added
 * latency under the single-connection load (no queueing) and shown for both.
 */
public final class OverheadReport {

    static final double THROUGHPUT_TARGET = 0.90;
    static final double ADDED_MEDIAN_LATENCY_TARGET_MS = 0.3;

    private final List<Measurement> measurements;

    public OverheadReport(List<Measurement> measurements) {
        this.measurements = List.copyOf(measurements);
    }

    /** Median over rounds of the proxy's throughput / direct throughput under {@code load}. */
    public double throughputRatio(Target proxy, Load load) {
        return median(pairs(load, proxy, Target.DIRECT, m -> m.result().requestsPerSecond(), (p, d) -> p / d));
    }

    /** Median over rounds of the proxy's p50 − direct p50 under {@code load}, in milliseconds. */
    public double addedMedianLatencyMillis(Target proxy, Load load) {
        return median(pairs(load, proxy, Target.DIRECT, m -> m.result().p50Millis(), (p, d) -> p - d));
    }

    /**
     * Median over rounds of the CPU the proxy itself spends per request, in µs: the servers' CPU per request
     * through the proxy minus that of the direct run of the same round (the node's share).
     */
    public double proxyCpuMicrosPerRequest(Target proxy, Load load) {
        return median(pairs(load, proxy, Target.DIRECT, Measurement::serverCpuMicrosPerRequest, (p, d) -> p - d));
    }

    public String markdown(String command, Map<Load, Wrk> clients, MachineInfo machine, String loadBefore,
            String loadAfter, Instant started, String setup) {
        StringBuilder md = new StringBuilder();
        md.append("# Balancer overhead — ").append(started).append("\n\n");
        md.append("Command: `").append(command).append("`\n\n");
        md.append("Load client, the same for every target:\n");
        for (Load load : Load.values()) {
            md.append("- ").append(load.label()).append(": `")
                    .append(String.join(" ", clients.get(load).command(URI.create("http://127.0.0.1:PORT/hello/hi"))))
                    .append("`\n");
        }
        md.append("\n## Machine\n").append(machine.markdown());
        md.append("- Load average (1/5/15 min) before: ").append(loadBefore).append(", after: ").append(loadAfter)
                .append(". Other builds may have been running.\n");
        md.append("- wrk, the node and the proxies all run on these ").append(machine.cores())
                .append(" cores and compete for them: the figures are a comparison, not the capacity of any "
                        + "server. Under the saturating load a proxy's own CPU time comes out of the same cores "
                        + "that serve the node and wrk, so no proxy can reach direct throughput here; HAProxy shows "
                        + "how close one gets.\n\n");
        md.append("## Setup\n").append(setup).append("\n\n");

        md.append("## Per run\n\n| round | position | load | target | requests/s | p50 ms | p75 ms | p90 ms | p99 ms | errors "
                + "| server CPU µs/request |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (Measurement m : measurements) {
            WrkResult r = m.result();
            md.append(String.format(Locale.ROOT, "| %d | %d | %s | %s | %,.0f | %.3f | %.3f | %.3f | %.3f | %d | %.0f |%n",
                    m.round(), m.position(), m.load().label(), m.target().label(), r.requestsPerSecond(), r.p50Millis(),
                    r.p75Millis(), r.p90Millis(), r.p99Millis(), r.errors(), m.serverCpuMicrosPerRequest()));
        }

        md.append("\n## Medians over the rounds\n\n| load | target | requests/s | p50 ms | p90 ms | p99 ms "
                + "| server CPU µs/request |\n");
        md.append("|---|---|---|---|---|---|---|\n");
        for (Load load : Load.values()) {
            for (Target target : Target.values()) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %,.0f | %.3f | %.3f | %.3f | %.0f |%n", load.label(),
                        target.label(), median(of(load, target, m -> m.result().requestsPerSecond())),
                        median(of(load, target, m -> m.result().p50Millis())),
                        median(of(load, target, m -> m.result().p90Millis())),
                        median(of(load, target, m -> m.result().p99Millis())),
                        median(of(load, target, Measurement::serverCpuMicrosPerRequest))));
            }
        }

        md.append("\n## Each proxy versus direct (paired by round, median over rounds)\n\n");
        md.append("| load | proxy | throughput proxy/direct | added p50 | added p90 | added p99 | server CPU per request "
                + "proxy/direct | proxy's own CPU µs/request | per round: ratio / added p50 |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Load load : Load.values()) {
            for (Target proxy : Target.proxies()) {
                double[] ratios = pairs(load, proxy, Target.DIRECT, m -> m.result().requestsPerSecond(), (p, d) -> p / d);
                double[] added = pairs(load, proxy, Target.DIRECT, m -> m.result().p50Millis(), (p, d) -> p - d);
                List<String> perRound = new ArrayList<>();
                for (int i = 0; i < ratios.length; i++) {
                    perRound.add(String.format(Locale.ROOT, "%.2f / %+.3f ms", ratios[i], added[i]));
                }
                md.append(String.format(Locale.ROOT, "| %s | %s | **%.2f** | **%+.3f ms** | %+.3f ms | %+.3f ms | %.2f | %.0f | %s |%n",
                        load.label(), proxy.label(), throughputRatio(proxy, load), addedMedianLatencyMillis(proxy, load),
                        median(pairs(load, proxy, Target.DIRECT, m -> m.result().p90Millis(), (p, d) -> p - d)),
                        median(pairs(load, proxy, Target.DIRECT, m -> m.result().p99Millis(), (p, d) -> p - d)),
                        median(pairs(load, proxy, Target.DIRECT, Measurement::serverCpuMicrosPerRequest, (p, d) -> p / d)),
                        proxyCpuMicrosPerRequest(proxy, load), String.join("; ", perRound)));
            }
        }

        md.append("\n## Cohort's balancer versus HAProxy\n\n");
        md.append("Throughput and p50 paired by round (median over rounds); own CPU as the ratio of the two medians above.\n\n");
        md.append("| load | throughput balancer/HAProxy | p50 balancer − HAProxy | own CPU per request balancer/HAProxy |\n");
        md.append("|---|---|---|---|\n");
        for (Load load : Load.values()) {
            double balancerCpu = proxyCpuMicrosPerRequest(Target.BALANCER, load);
            double haproxyCpu = proxyCpuMicrosPerRequest(Target.HAPROXY, load);
            md.append(String.format(Locale.ROOT, "| %s | %.2f | %+.3f ms | %s |%n", load.label(),
                    median(pairs(load, Target.BALANCER, Target.HAPROXY, m -> m.result().requestsPerSecond(), (b, h) -> b / h)),
                    median(pairs(load, Target.BALANCER, Target.HAPROXY, m -> m.result().p50Millis(), (b, h) -> b - h)),
                    balancerCpu > 0 && haproxyCpu > 0 ? String.format(Locale.ROOT, "%.2f", balancerCpu / haproxyCpu)
                            : "n/a (an own-CPU figure is not positive)"));
        }

        double ratio = throughputRatio(Target.BALANCER, Load.SATURATING);
        double addedSingle = addedMedianLatencyMillis(Target.BALANCER, Load.SINGLE);
        double addedSaturating = addedMedianLatencyMillis(Target.BALANCER, Load.SATURATING);
        md.append(String.format(Locale.ROOT, "%n| target | goal | measured | verdict | HAProxy on the same cores (reference) |%n"
                        + "|---|---|---|---|---|%n"
                        + "| throughput through the balancer (saturating load) | ≥ %.0f %% of direct | %.0f %% | %s | %.0f %% |%n"
                        + "| added median latency on loopback (single connection) | ≤ %.1f ms | %+.3f ms | %s | %+.3f ms |%n"
                        + "| added median latency on loopback (saturating load) | ≤ %.1f ms | %+.3f ms | %s | %+.3f ms |%n",
                THROUGHPUT_TARGET * 100, ratio * 100, verdict(ratio >= THROUGHPUT_TARGET),
                throughputRatio(Target.HAPROXY, Load.SATURATING) * 100,
                ADDED_MEDIAN_LATENCY_TARGET_MS, addedSingle, verdict(addedSingle <= ADDED_MEDIAN_LATENCY_TARGET_MS),
                addedMedianLatencyMillis(Target.HAPROXY, Load.SINGLE),
                ADDED_MEDIAN_LATENCY_TARGET_MS, addedSaturating, verdict(addedSaturating <= ADDED_MEDIAN_LATENCY_TARGET_MS),
                addedMedianLatencyMillis(Target.HAPROXY, Load.SATURATING)));
        long errors = measurements.stream().mapToLong(m -> m.result().errors()).sum();
        md.append("\nErrors (non-2xx/3xx and socket errors) over all runs: ").append(errors).append(".\n");
        return md.toString();
    }

    private static String verdict(boolean met) {
        return met ? "met" : "NOT met";
    }

    private double[] of(Load load, Target target, ToDoubleFunction<Measurement> figure) {
        return measurements.stream().filter(m -> m.load() == load && m.target() == target).mapToDouble(figure).toArray();
    }

    /** For each round that measured both targets under {@code load}: combine(figure of a, figure of b). */
    private double[] pairs(Load load, Target a, Target b, ToDoubleFunction<Measurement> figure, DoubleBinaryOperator combine) {
        List<Double> values = new ArrayList<>();
        int rounds = measurements.stream().mapToInt(Measurement::round).max().orElse(0);
        for (int round = 1; round <= rounds; round++) {
            Measurement first = find(round, load, a);
            Measurement second = find(round, load, b);
            if (first != null && second != null) {
                values.add(combine.applyAsDouble(figure.applyAsDouble(first), figure.applyAsDouble(second)));
            }
        }
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private Measurement find(int round, Load load, Target target) {
        return measurements.stream().filter(m -> m.round() == round && m.load() == load && m.target() == target)
                .findFirst().orElse(null);
    }

}
