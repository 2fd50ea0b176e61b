package io.cohort.admin;

/** Where a node is in its life; the health endpoint answers 200 only when {@link #UP}. */
public enum NodeState {
    /** Joining the cluster and deploying applications; not ready for traffic. */
    STARTING,
    /** Serving. */
    UP,
    /** Stopping gracefully: finishing in-flight requests and handing sessions over; send no new work. */
    DRAINING,
    /** Stopped. */
    STOPPED
}
