package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.Summary;
import java.util.function.ToDoubleFunction;

/** A measure of an experiment's summary that the findings compare, with its unit. */
enum Measure {
    THROUGHPUT("throughput", "pages/s", 0, Summary::pagesPerSecond),
    RESPONSE_TIME("mean response time", "ms", 1, Summary::meanMs),
    CPU("CPU per node", "%", 1, Summary::cpuPercentPerNode),
    INTERCONNECT("interconnect per node", "KB/s", 1, Summary::interconnectKBpsPerNode);

    private final String label;
    private final String unit;
    private final int decimals;
    private final ToDoubleFunction<Summary> value;

    Measure(String label, String unit, int decimals, ToDoubleFunction<Summary> value) {
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
        return value.applyAsDouble(result.summary());
    }

    /** "1,234 pages/s". */
    String format(double value) {
        return Format.number(value, decimals) + " " + unit;
    }
}
