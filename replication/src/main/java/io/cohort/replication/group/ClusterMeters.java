package io.cohort.replication.group;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The node's meters of its group membership (tag {@code cluster}), for telling a stable group from a
 * flapping one: the member count, the changes of the member list, and whether the socket failure
 * detector watches its neighbour.
 */
final class ClusterMeters {

    /** Gauge: members in this node's view, itself included. */
    static final String MEMBERS = "cohort.cluster.members";
    /**
     * Counter: changes of this node's member list, its own first view included. Rising while nothing
     * joins or leaves means members are being suspected and readmitted (flapping).
     */
    static final String MEMBERSHIP_CHANGES = "cohort.cluster.membership.changes";
    /**
     * Gauge: 1 while the socket failure detector (FD_SOCK2) holds a connection to the member it watches,
     * or has none to watch; 0 while it cannot connect, when that member's crash is noticed only by missing
     * heartbeats and every busy moment risks a false suspicion (usually an address or firewall problem).
     * Absent when the stack has no FD_SOCK2.
     */
    static final String FAILURE_DETECTOR_CONNECTED = "cohort.cluster.failure.detector.connected";

    private ClusterMeters() {
    }

    /**
     * Registers the gauges and returns the counter the caller increments on every member list change.
     *
     * @param detector the watch of the stack's FD_SOCK2, or null when it has none
     */
    static Counter register(MeterRegistry meters, String cluster, GroupMembership membership,
            FailureDetectorWatch detector) {
        Gauge.builder(MEMBERS, membership, m -> m.members().size()).tags("cluster", cluster)
                .description("members in this node's view of the cluster, itself included").register(meters);
        if (detector != null) {
            Gauge.builder(FAILURE_DETECTOR_CONNECTED, detector, d -> d.status().healthy() ? 1 : 0)
                    .tags("cluster", cluster).strongReference(true)
                    .description("whether the socket failure detector is connected to the member it watches")
                    .register(meters);
        }
        return Counter.builder(MEMBERSHIP_CHANGES).tags("cluster", cluster)
                .description("changes of this node's list of cluster members since it started").register(meters);
    }
}
