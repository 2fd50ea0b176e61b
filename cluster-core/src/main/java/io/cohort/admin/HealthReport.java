package io.cohort.admin;

import io.cohort.metrics.LoadProbe.LoadReport;

/**
 * The health endpoint's answer, also what the balancer's {@code metric} policies read.
 *
 * @param status the node's state
 * @param node the node's name (its route)
 * @param host the node's configured host
 * @param load how busy the node is; {@code load.spareCapacity()} ranks members
 * @param applications number of deployed applications
 * @param sessions sessions held in memory across applications
 * @param members members in this node's cluster view
 */
public record HealthReport(NodeState status, String node, String host, LoadReport load, int applications,
        long sessions, int members) {
}
