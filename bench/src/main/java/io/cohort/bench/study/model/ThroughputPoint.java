package io.cohort.bench.study.model;

/**
 * One second of an experiment as the load driver saw it.
 *
 * @param second  seconds since the start of the measurement window (negative during warm-up)
 * @param pages   pages completed in this second
 * @param errors  pages that failed in this second
 * @param meanMs  mean response time of the pages completed in this second (0 when none)
 */
public record ThroughputPoint(double second, long pages, long errors, double meanMs) {
}
