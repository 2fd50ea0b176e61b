package io.cohort.bench;

import java.util.Arrays;

/** The median the benchmarks judge paired rounds by. */
public final class Median {

    private Median() {
    }

    /** The median of the values (the mean of the middle two for an even count); NaN for none. */
    public static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }
}
