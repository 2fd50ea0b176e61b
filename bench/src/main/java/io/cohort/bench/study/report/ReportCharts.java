package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.study.model.ThroughputPoint;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The report's charts in the study's layout, as {@link ChartSpec}s: per comparison group and load the
 * throughput and response-time ratios against nodes, and CPU % and interconnect KB/s over time at the
 * largest size measured; per failover experiment the throughput over time with the kill marked.
 */
final class ReportCharts {

    private static final String TIME_AXIS = "seconds since the measurement started (negative: warm-up)";

    private final RunData data;

    ReportCharts(RunData data) {
        this.data = data;
    }

    /** The patterns of the group measured at this load (steady Cohort experiments), in the group's order. */
    List<String> measuredPatterns(ComparisonGroup group, String load) {
        return group.patterns().stream().filter(p -> !data.nodeCounts(p, load).isEmpty()).toList();
    }

    /** Throughput-ratio and response-time-ratio charts against nodes; empty when no point has a baseline. */
    List<ChartSpec> ratioCharts(ComparisonGroup group, String load) {
        Baseline baseline = Baseline.at(data, load);
        List<ChartSpec.Line> throughput = new ArrayList<>();
        List<ChartSpec.Line> response = new ArrayList<>();
        int maxNodes = 0;
        for (String pattern : measuredPatterns(group, load)) {
            List<Double> nodes = new ArrayList<>();
            List<Double> tput = new ArrayList<>();
            List<Double> rt = new ArrayList<>();
            for (int n : data.nodeCounts(pattern, load)) {
                Optional<RatioPoint> point = RatioPoint.of(data, pattern, n, load);
                if (point.isPresent() && !Double.isNaN(point.get().throughput())
                        && !Double.isNaN(point.get().responseTime())) {
                    nodes.add((double) n);
                    tput.add(point.get().throughput());
                    rt.add(point.get().responseTime());
                    maxNodes = Math.max(maxNodes, n);
                }
            }
            if (!nodes.isEmpty()) {
                throughput.add(new ChartSpec.Line(ComparisonGroup.legend(pattern), nodes, tput, ChartSpec.Style.DATA));
                response.add(new ChartSpec.Line(ComparisonGroup.legend(pattern), nodes, rt, ChartSpec.Style.DATA));
            }
        }
        if (throughput.isEmpty()) {
            return List.of();
        }
        if (baseline == Baseline.ONE_NODE_NONE && maxNodes > 1) {
            throughput.add(new ChartSpec.Line("linear scaling (ratio = nodes)", List.of(1.0, (double) maxNodes),
                    List.of(1.0, (double) maxNodes), ChartSpec.Style.REFERENCE));
        }
        String against = baseline == Baseline.ONE_NODE_NONE ? "ratio to 1-node none"
                : "FALLBACK: ratio to none at the same size";
        String prefix = group.slug() + "-" + Format.slug(load);
        String suffix = " — " + data.describeLoad(load);
        return List.of(
                new ChartSpec(prefix + "-throughput-ratio", group.title() + ": throughput ratio" + suffix,
                        "nodes", "throughput (" + against + ")", throughput, true),
                new ChartSpec(prefix + "-response-time-ratio", group.title() + ": response-time ratio" + suffix,
                        "nodes", "mean response time (" + against + ")", response, true));
    }

    /** The largest size at which any pattern of the group was measured at this load. */
    Optional<Integer> largestSize(ComparisonGroup group, String load) {
        return measuredPatterns(group, load).stream().flatMap(p -> data.nodeCounts(p, load).stream())
                .max(Integer::compare);
    }

    /** CPU % and interconnect KB/s over time, mean over nodes, at the group's largest size at this load. */
    List<ChartSpec> timeCharts(ComparisonGroup group, String load) {
        Optional<Integer> size = largestSize(group, load);
        if (size.isEmpty()) {
            return List.of();
        }
        List<ChartSpec.Line> cpu = new ArrayList<>();
        List<ChartSpec.Line> interconnect = new ArrayList<>();
        for (String pattern : measuredPatterns(group, load)) {
            Optional<ExperimentResult> result = data.find(pattern, size.get(), load);
            if (result.isEmpty() || result.get().nodes().isEmpty()) {
                continue;
            }
            cpu.add(meanOverNodes(ComparisonGroup.legend(pattern), result.get().nodes(), NodeSample::cpuPercent));
            interconnect.add(meanOverNodes(ComparisonGroup.legend(pattern), result.get().nodes(),
                    NodeSample::interconnectKBps));
        }
        if (cpu.isEmpty()) {
            return List.of();
        }
        String prefix = group.slug() + "-" + Format.slug(load);
        String suffix = " — " + size.get() + " nodes, " + data.describeLoad(load);
        return List.of(
                new ChartSpec(prefix + "-cpu", group.title() + ": CPU per node over time" + suffix, TIME_AXIS,
                        "CPU % per node, mean over nodes (100 = one core)", cpu, false),
                new ChartSpec(prefix + "-interconnect", group.title() + ": interconnect per node over time" + suffix,
                        TIME_AXIS, "interconnect KB/s per node (sent + received), mean over nodes", interconnect, false));
    }

    /** Pages per second over time with the kill drawn as a vertical line; empty without timeline or outcome. */
    Optional<ChartSpec> failoverChart(ExperimentResult result) {
        List<Double> seconds = new ArrayList<>();
        List<Double> pages = new ArrayList<>();
        List<Double> errors = new ArrayList<>();
        double peak = 1;
        for (ThroughputPoint point : result.timeline()) {
            seconds.add(point.second());
            pages.add((double) point.pages());
            errors.add((double) point.errors());
            peak = Math.max(peak, point.pages());
        }
        List<ChartSpec.Line> lines = new ArrayList<>();
        if (!seconds.isEmpty()) {
            lines.add(new ChartSpec.Line("pages/s", seconds, pages, ChartSpec.Style.TIMELINE));
            lines.add(new ChartSpec.Line("failed pages/s", seconds, errors, ChartSpec.Style.TIMELINE));
        }
        FailoverOutcome outcome = result.failover();
        if (outcome != null) {
            lines.add(new ChartSpec.Line("SIGKILL " + outcome.killedNode() + " at " + Format.number(outcome.killedAtSecond(), 1)
                    + " s", List.of(outcome.killedAtSecond(), outcome.killedAtSecond()), List.of(0.0, peak),
                    ChartSpec.Style.EVENT));
        }
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ChartSpec("failover-" + Format.slug(result.spec().id()), "Failover: " + result.spec().pattern() + ", "
                + result.spec().nodes() + " nodes, " + data.describeLoad(result.spec().load()), TIME_AXIS,
                "pages per second (whole cluster)", lines, false));
    }

    /** Averages samples of all nodes that fall into the same whole second. */
    static ChartSpec.Line meanOverNodes(String name, List<NodeSample> samples, ToDoubleFunction<NodeSample> value) {
        Map<Long, double[]> buckets = new TreeMap<>();
        for (NodeSample sample : samples) {
            double[] sum = buckets.computeIfAbsent((long) Math.floor(sample.second()), k -> new double[2]);
            sum[0] += value.applyAsDouble(sample);
            sum[1]++;
        }
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        buckets.forEach((second, sum) -> {
            x.add((double) second);
            y.add(sum[0] / sum[1]);
        });
        return new ChartSpec.Line(name, x, y, ChartSpec.Style.TIMELINE);
    }
}
