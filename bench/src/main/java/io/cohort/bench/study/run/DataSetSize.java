package io.cohort.bench.study.run;

import java.util.List;

/**
 * The size of the shop's benchmark data set: accounts {@code user0..user<accounts-1>} and products (each word of
 * the search vocabulary names about 100 of them, so a search finds about 100 products whatever the size).
 * Handed to the nodes as the shop's {@code jpetstore.benchmark.*} settings; a database that already holds a
 * data set keeps it.
 *
 * @param accounts benchmark accounts (1..1,000,000)
 * @param products benchmark products (200..96,000: fewer than 200 leaves fewer than 4 search words)
 */
public record DataSetSize(int accounts, int products) {

    /** The shop's defaults, the study's size. */
    public static final DataSetSize FULL = new DataSetSize(20_000, 50_000);
    /** Small enough to load in a few seconds on H2, still ~100 results per search. */
    public static final DataSetSize QUICK = new DataSetSize(2_000, 10_000);

    public DataSetSize {
        if (accounts < 1 || accounts > 1_000_000) {
            throw new IllegalArgumentException("--accounts must be 1 to 1000000: " + accounts);
        }
        if (products < 200 || products > 96_000) {
            throw new IllegalArgumentException("--products must be 200 to 96000: " + products);
        }
    }

    /** The node JVM options that choose this data set. */
    List<String> systemProperties() {
        return List.of("-Djpetstore.dataset=benchmark", "-Djpetstore.benchmark.accounts=" + accounts,
                "-Djpetstore.benchmark.products=" + products);
    }
}
