package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;

/**
 * Builds {@link Check}s that compare two patterns of one run, each with an explicit tolerance.
 *
 * <p>Two patterns are compared at one load and at the largest size (≥ 2 nodes) at which the run
 * measured both, so every check compares experiments that ran under the same load per node and the
 * same number of nodes. When either is missing the check is "not measured" and says what the run had.
 */
final class Comparisons {

    /** An ordering "a &lt; b" holds when a is at least this fraction below b; "a ≤ b" when a is at most this above b. */
    static final double ORDER_MARGIN = 0.05;
    /** "a ≪ b" holds when a is at most this fraction of b. */
    static final double MUCH_LESS = 0.10;

    private final RunData data;

    Comparisons(RunData data) {
        this.data = data;
    }

    RunData data() {
        return data;
    }

    /** a's measure lower than b's by at least {@link #ORDER_MARGIN}. */
    Check below(Measure measure, String a, String b, Optional<String> load, String loadName) {
        return compare(measure + " " + a + " < " + b + " (by ≥ " + pct(ORDER_MARGIN) + ")", measure, a, b, load,
                loadName, 2, r -> r <= 1 - ORDER_MARGIN);
    }

    /** a's measure not above b's by more than {@link #ORDER_MARGIN}. */
    Check notAbove(Measure measure, String a, String b, Optional<String> load, String loadName) {
        return compare(measure + " " + a + " ≤ " + b + " (within " + pct(ORDER_MARGIN) + ")", measure, a, b, load,
                loadName, 2, r -> r <= 1 + ORDER_MARGIN);
    }

    /** a's measure at most {@link #MUCH_LESS} of b's. */
    Check muchBelow(Measure measure, String a, String b, Optional<String> load, String loadName) {
        return compare(measure + " " + a + " ≪ " + b + " (≤ " + pct(MUCH_LESS) + " of it)", measure, a, b, load,
                loadName, 2, r -> r <= MUCH_LESS);
    }

    /** a / b within [low, high]. */
    Check ratioBetween(Measure measure, String a, String b, double low, double high, Optional<String> load,
            String loadName) {
        return compare(measure + " " + a + " / " + b + " in [" + Format.ratio(low) + ", " + Format.ratio(high) + "]",
                measure, a, b, load, loadName, 2, r -> r >= low && r <= high);
    }

    /** a / b within {@code tolerance} of 1. */
    Check near(Measure measure, String a, String b, double tolerance, Optional<String> load, String loadName) {
        return compare(measure + " " + a + " ≈ " + b + " (±" + pct(tolerance) + ")", measure, a, b, load, loadName,
                2, r -> Math.abs(r - 1) <= tolerance);
    }

    /**
     * The pattern's measure varies by at most {@code tolerance} (largest / smallest − 1) over every
     * size of at least 2 nodes measured at this load; needs two such sizes.
     */
    Check constantOverSizes(Measure measure, String pattern, double tolerance, Optional<String> load,
            String loadName) {
        String expectation = measure + " of " + pattern + " constant as nodes grow (largest / smallest ≤ "
                + Format.ratio(1 + tolerance) + ")";
        if (load.isEmpty()) {
            return Check.notMeasured(expectation, missingLoad(loadName));
        }
        List<Integer> sizes = data.commonNodeCounts(load.get(), 2, List.of(pattern));
        if (sizes.size() < 2) {
            return Check.notMeasured(expectation, "needs " + pattern + " at two or more sizes of ≥ 2 nodes at "
                    + data.describeLoad(load.get()) + "; this run: " + data.describeCoverage(load.get(), List.of(pattern)));
        }
        List<String> figures = new ArrayList<>();
        double min = Double.MAX_VALUE;
        double max = 0;
        for (int nodes : sizes) {
            double value = measure.of(data.find(pattern, nodes, load.get()).orElseThrow());
            figures.add(measure.format(value) + " at " + nodes);
            min = Math.min(min, value);
            max = Math.max(max, value);
        }
        boolean holds = min > 0 ? max / min - 1 <= tolerance : max == 0;
        return Check.of(expectation, holds, String.join(", ", figures) + " nodes (largest / smallest "
                + (min > 0 ? Format.ratio(max / min) : "n/a") + "), " + data.describeLoad(load.get()));
    }

    /**
     * Compares a and b at the largest size (≥ {@code minNodes}) where both were measured at this load;
     * {@code test} receives a / b (NaN when b is 0, which fails every test).
     */
    Check compare(String expectation, Measure measure, String a, String b, Optional<String> load, String loadName,
            int minNodes, DoublePredicate test) {
        if (load.isEmpty()) {
            return Check.notMeasured(expectation, missingLoad(loadName));
        }
        Optional<Integer> nodes = data.largestCommonNodeCount(load.get(), minNodes, List.of(a, b));
        if (nodes.isEmpty()) {
            return Check.notMeasured(expectation, "needs " + a + " and " + b + " at one size of ≥ " + minNodes
                    + " nodes at " + data.describeLoad(load.get()) + "; this run: "
                    + data.describeCoverage(load.get(), List.of(a, b)));
        }
        return compareAt(expectation, measure, a, b, load.get(), nodes.get(), test);
    }

    /** Compares a and b at this load and size, both of which must have been measured. */
    Check compareAt(String expectation, Measure measure, String a, String b, String load, int nodes,
            DoublePredicate test) {
        ExperimentResult x = data.find(a, nodes, load).orElseThrow();
        ExperimentResult y = data.find(b, nodes, load).orElseThrow();
        double va = measure.of(x);
        double vb = measure.of(y);
        double ratio = vb == 0 ? (va == 0 ? 1 : Double.NaN) : va / vb;
        boolean holds = !Double.isNaN(ratio) && test.test(ratio);
        return Check.of(expectation, holds, a + " " + measure.format(va) + " vs " + b + " " + measure.format(vb)
                + " (ratio " + Format.ratio(ratio) + ") at " + nodes + " nodes, " + data.describeLoad(load));
    }

    String missingLoad(String loadName) {
        return "needs a " + loadName + " load; this run measured "
                + (data.loads().isEmpty() ? "nothing" : String.join(", ", data.loads().stream()
                        .map(data::describeLoad).toList()));
    }

    static String pct(double fraction) {
        return Format.number(fraction * 100, 0) + " %";
    }
}
