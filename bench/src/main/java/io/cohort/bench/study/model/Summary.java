package io.cohort.bench.study.model;

/**
 * The measures of one experiment over its measurement window.
 *
 * @param pages                    pages served: responses received, less those that were errors (a 5xx, a page
 *                                 that was not the one expected); in run folders written before 2026-11-28, every
 *                                 response received
 * @param pagesPerSecond           pages / window length
 * @param meanMs                   mean response time from the scheduled send time, over every response received
 *                                 (errors too) and every timeout
 * @param p50Ms                    median response time
 * @param p90Ms                    90th percentile
 * @param p99Ms                    99th percentile
 * @param maxMs                    the slowest page
 * @param errors                   pages that failed: connection errors, timeouts, 5xx, unexpected content
 * @param scenarios                scenarios (sign-on … sign-off) completed in the window
 * @param sessionsLost             scenarios whose session was lost or stale: the cart at checkout did not
 *                                 hold exactly what the user added, the order total did not match, or the
 *                                 user was found signed off
 * @param cpuPercentPerNode        mean CPU % of one node process (100 = one core), averaged over nodes
 * @param interconnectKBpsPerNode  mean replication bytes sent + received per node, KB/s (database bytes for
 *                                 the database protocol; 0 without replication)
 * @param interconnectUnmeasured   true when no node had a byte counter to read (e.g. Jetty's JDBC session store):
 *                                 {@code interconnectKBpsPerNode} is then 0 for want of a measure, and reports
 *                                 say "not measured" (false in run folders written before the field existed)
 */
public record Summary(long pages, double pagesPerSecond, double meanMs, double p50Ms, double p90Ms, double p99Ms,
        double maxMs, long errors, long scenarios, long sessionsLost, double cpuPercentPerNode,
        double interconnectKBpsPerNode, boolean interconnectUnmeasured) {

    /** A summary whose interconnect was measured. */
    public Summary(long pages, double pagesPerSecond, double meanMs, double p50Ms, double p90Ms, double p99Ms,
            double maxMs, long errors, long scenarios, long sessionsLost, double cpuPercentPerNode,
            double interconnectKBpsPerNode) {
        this(pages, pagesPerSecond, meanMs, p50Ms, p90Ms, p99Ms, maxMs, errors, scenarios, sessionsLost,
                cpuPercentPerNode, interconnectKBpsPerNode, false);
    }
}
