package io.cohort.bench.study.run;

import io.cohort.bench.study.driver.LoadStats;
import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.study.model.Summary;
import io.cohort.bench.study.model.ThroughputPoint;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/** Computes an experiment's {@link Summary} and timeline from the driver's statistics and the node samples. */
final class ResultAssembly {

    private ResultAssembly() {
    }

    static Summary summary(LoadStats stats, Duration window, List<NodeSample> samples, boolean interconnectMeasured) {
        return summary(stats.windowSeconds(), stats.windowHistogram(), window, samples, interconnectMeasured);
    }

    /**
     * The summary of a window's seconds. Its pages are the pages served: an answer that was an error (a balancer's 502
     * or 503 page, a page that ended its scenario as an error) counts among the errors only, so a front that fails fast
     * does not raise the throughput, as in the failover analysis.
     */
    static Summary summary(List<SecondCounts> seconds, Histogram histogram, Duration window, List<NodeSample> samples,
            boolean interconnectMeasured) {
        long pages = seconds.stream().mapToLong(SecondCounts::goodPages).sum();
        double windowSeconds = window.toNanos() / 1e9;
        // a sample covers the second before it: only those wholly inside the window (one partly before it is partly
        // warm-up, one partly after it partly the stop, when no new pages go out)
        List<NodeSample> measured = samples.stream()
                .filter(s -> s.second() - NodeSampler.PERIOD_SECONDS >= 0 && s.second() <= windowSeconds).toList();
        return new Summary(pages, pages / windowSeconds, ms(histogram.getMean()),
                ms(histogram.getValueAtPercentile(50)), ms(histogram.getValueAtPercentile(90)),
                ms(histogram.getValueAtPercentile(99)), ms(histogram.getMaxValue()),
                seconds.stream().mapToLong(SecondCounts::errors).sum(),
                seconds.stream().mapToLong(SecondCounts::scenarios).sum(),
                seconds.stream().mapToLong(SecondCounts::sessionsLost).sum(),
                meanPerNode(measured, NodeSample::cpuPercent), meanPerNode(measured, NodeSample::interconnectKBps),
                !interconnectMeasured);
    }

    /** The mean over nodes of each node's mean over its samples (a killed node counts while it lived). */
    private static double meanPerNode(List<NodeSample> samples, ToDoubleFunction<NodeSample> value) {
        Map<String, Double> perNode = samples.stream().collect(Collectors.groupingBy(NodeSample::node,
                Collectors.averagingDouble(value)));
        return perNode.values().stream().mapToDouble(Double::doubleValue).average().orElse(0);
    }

    static List<ThroughputPoint> timeline(LoadStats stats, Duration window) {
        long last = (window.toNanos() + 999_999_999L) / 1_000_000_000L;
        return stats.seconds().stream().filter(s -> s.second() < last)
                .map(s -> new ThroughputPoint(s.second(), s.pages(), s.errors(), s.meanMs(), s.failedPages())).toList();
    }

    private static double ms(double micros) {
        return micros / 1000.0;
    }
}
