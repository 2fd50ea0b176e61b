package io.cohort.bench.study.model;

/**
 * One second of an experiment as the load driver saw it.
 *
 * @param second       seconds since the start of the measurement window (negative during warm-up)
 * @param pages        pages completed in this second
 * @param errors       pages that failed in this second (with or without a response)
 * @param meanMs       mean response time of the pages completed in this second (0 when none)
 * @param failedPages  the pages among {@code pages} that failed (5xx, or not the page the scenario expected); absent
 *                     (0) in a run folder written before it was recorded
 */
public record ThroughputPoint(double second, long pages, long errors, double meanMs, long failedPages) {

    /** The pages that were the page the scenario expected: what a failover's recovery counts. */
    public long goodPages() {
        return Math.max(0, pages - failedPages);
    }
}
