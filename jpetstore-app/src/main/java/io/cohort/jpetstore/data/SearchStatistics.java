package io.cohort.jpetstore.data;

import java.util.List;
import java.util.Locale;

/**
 * Result counts of a set of searches, measured by running them.
 *
 * @param searches how many searches ran
 * @param mean mean number of products found per search
 */
public record SearchStatistics(int searches, double mean, int min, int max, double standardDeviation) {

    /** Runs one search per keyword, uncapped, and summarises how many products each found. */
    public static SearchStatistics measure(ProductSearch search, List<String> keywords) {
        if (keywords.isEmpty()) {
            throw new IllegalArgumentException("no keywords to search for");
        }
        long sum = 0;
        long sumOfSquares = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (String keyword : keywords) {
            int found = search.search(keyword, Integer.MAX_VALUE).size();
            sum += found;
            sumOfSquares += (long) found * found;
            min = Math.min(min, found);
            max = Math.max(max, found);
        }
        int n = keywords.size();
        double mean = (double) sum / n;
        double variance = Math.max(0, (double) sumOfSquares / n - mean * mean);
        return new SearchStatistics(n, mean, min, max, Math.sqrt(variance));
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%d searches: mean %.2f products per keyword (min %d, max %d, sd %.2f)",
                searches, mean, min, max, standardDeviation);
    }
}
