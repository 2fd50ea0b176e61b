package io.cohort.jpetstore.data;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * Which data set to load when the database is empty, read once from settings (see {@link #from}).
 *
 * @param accounts generated benchmark accounts (0 for the standard data set)
 * @param products generated benchmark products (0 for the standard data set)
 */
public record DataSetChoice(Kind kind, int accounts, int products) {
    /** Setting that chooses the data set: {@code standard} (default) or {@code benchmark}. */
    public static final String DATASET = "jpetstore.dataset";
    /** Setting: generated accounts of the benchmark data set; default {@value #DEFAULT_ACCOUNTS}. */
    public static final String ACCOUNTS = "jpetstore.benchmark.accounts";
    /** Setting: generated products of the benchmark data set; default {@value #DEFAULT_PRODUCTS}. */
    public static final String PRODUCTS = "jpetstore.benchmark.products";
    public static final int DEFAULT_ACCOUNTS = 20_000;
    public static final int DEFAULT_PRODUCTS = 50_000;

    public enum Kind {
        STANDARD, BENCHMARK;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DataSetChoice {
        if (kind == Kind.BENCHMARK) {
            new BenchmarkDataSet(accounts, products); // validates the sizes, failing fast with a clear message
        }
    }

    public static DataSetChoice standard() {
        return new DataSetChoice(Kind.STANDARD, 0, 0);
    }

    public static DataSetChoice benchmark(int accounts, int products) {
        return new DataSetChoice(Kind.BENCHMARK, accounts, products);
    }

    /**
     * Reads the choice from named settings ({@code settings} returns null for an unset name).
     *
     * @throws IllegalArgumentException naming the setting that is wrong
     */
    public static DataSetChoice from(UnaryOperator<String> settings) {
        String kind = settings.apply(DATASET);
        if (kind == null || kind.isBlank() || kind.trim().equalsIgnoreCase("standard")) {
            return standard();
        }
        if (!kind.trim().equalsIgnoreCase("benchmark")) {
            throw new IllegalArgumentException(DATASET + " must be 'standard' or 'benchmark', not '" + kind + "'");
        }
        return benchmark(number(settings, ACCOUNTS, DEFAULT_ACCOUNTS), number(settings, PRODUCTS, DEFAULT_PRODUCTS));
    }

    private static int number(UnaryOperator<String> settings, String name, int fallback) {
        String value = settings.apply(name);
        if (value == null || value.isBlank()) {
            return fallback;
        }
        try {
            return Integer.parseInt(value.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, not '" + value + "'", e);
        }
    }

    @Override
    public String toString() {
        return kind == Kind.STANDARD ? "standard" : "benchmark (" + accounts + " accounts, " + products + " products)";
    }
}
