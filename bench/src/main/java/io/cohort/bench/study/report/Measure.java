package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.Summary;
import java.util.function.ToDoubleFunction;

/**
 * A measure of an experiment that the findings compare, with its unit.
 *
 * <p>Interconnect traffic is compared per page served (the cluster's bytes sent + received per second
 * divided by its pages per second): the study compared KB/s at equal load, and in a closed loop the bytes
 * per second follow the pages per second, so two short runs whose throughput differs by noise would
 * otherwise look like different replication volumes.
 */
enum Measure {
    THROUGHPUT("throughput", "pages/s", 0, r -> r.summary().pagesPerSecond()),
    RESPONSE_TIME("mean response time", "ms", 1, r -> r.summary().meanMs()),
    CPU("CPU per node", "%", 1, r -> r.summary().cpuPercentPerNode()),
    INTERCONNECT("interconnect per page", "KB/page", 2, Measure::interconnectPerPage);

    private final String label;
    private final String unit;
    private final int decimals;
    private final ToDoubleFunction<ExperimentResult> value;

    Measure(String label, String unit, int decimals, ToDoubleFunction<ExperimentResult> value) {
        this.label = label;
        this.unit = unit;
        this.decimals = decimals;
        this.value = value;
    }

    String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    double of(ExperimentResult result) {
        return value.applyAsDouble(result);
    }

    /** KB sent + received by all nodes per page served; 0 when no page was served. */
    static double interconnectPerPage(ExperimentResult result) {
        Summary summary = result.summary();
        return summary.pagesPerSecond() <= 0 ? 0
                : summary.interconnectKBpsPerNode() * result.spec().nodes() / summary.pagesPerSecond();
    }

    /** "1,234 pages/s". */
    String format(double value) {
        return Format.number(value, decimals) + " " + unit;
    }
}
