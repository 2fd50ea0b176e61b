package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import java.util.Optional;

/**
 * One experiment's throughput and mean response time divided by its baseline's (see {@link Baseline}).
 *
 * @param throughput    pages/s divided by the baseline's pages/s
 * @param responseTime  mean response time divided by the baseline's
 * @param baseline      which baseline was used
 */
record RatioPoint(int nodes, double throughput, double responseTime, Baseline baseline) {

    /** The ratios of {@code result} at its load, or empty when its baseline was not measured. */
    static Optional<RatioPoint> of(RunData data, ExperimentResult result) {
        String load = result.spec().load();
        Baseline baseline = Baseline.at(data, load);
        return baseline.experiment(data, result.spec().nodes(), load)
                .map(base -> new RatioPoint(result.spec().nodes(),
                        divide(result.summary().pagesPerSecond(), base.summary().pagesPerSecond()),
                        divide(result.summary().meanMs(), base.summary().meanMs()), baseline));
    }

    /** The ratios of the steady Cohort experiment of this pattern, size and load, if measured with a baseline. */
    static Optional<RatioPoint> of(RunData data, String pattern, int nodes, String load) {
        return data.find(pattern, nodes, load).flatMap(r -> of(data, r));
    }

    private static double divide(double value, double base) {
        return base == 0 ? Double.NaN : value / base;
    }
}
