package io.cohort.bench.study.model;

/**
 * One sample of one node's resource use.
 *
 * @param node             the node's name (its session route)
 * @param second           seconds since the start of the measurement window (negative during warm-up)
 * @param cpuPercent       CPU used by the node's process since the previous sample, 100 = one core
 * @param interconnectKBps replication (or database) bytes sent + received per second since the previous
 *                         sample, in KB/s (1 KB = 1000 bytes)
 */
public record NodeSample(String node, double second, double cpuPercent, double interconnectKBps) {
}
