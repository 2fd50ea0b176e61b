package io.cohort.bench.study.model;

/**
 * What happened when a node was killed in the middle of an experiment.
 *
 * @param killedNode        the node killed with SIGKILL
 * @param killedAtSecond    when, in seconds since the start of the measurement window
 * @param sessionsLost      scenarios in flight at the kill or started after it whose session was lost or stale
 * @param errorsAfterKill   failed pages from the kill to the end of the window
 * @param recoverySeconds   seconds from the kill until throughput was back to at least 90 % of its mean
 *                          before the kill for 3 consecutive seconds (scaled to the surviving nodes), or
 *                          null if it never was within the window
 */
public record FailoverOutcome(String killedNode, double killedAtSecond, long sessionsLost, long errorsAfterKill,
        Double recoverySeconds) {
}
