package io.cohort.replication.engine;

/**
 * When a request thread may send its asynchronous change itself instead of waking its send lane's
 * thread for it ({@link Batching#callerSends()}). Sending on the caller saves a thread hand-off per
 * change; leaving it to the lane lets the lane group the changes that arrive close together into one
 * message, which saves the per-message work on both sides once changes come often enough to group.
 */
public enum CallerSends {

    /** The lane's thread sends every change: a transport whose send waits on the network (a database). */
    NEVER,

    /** The caller sends whenever its lane has nothing queued or in flight. */
    WHEN_IDLE,

    /**
     * As {@link #WHEN_IDLE}, but only while the lane's recent changes came further apart than its
     * {@linkplain Batching#linger() linger}: when, at the lane's smoothed rate, another change is
     * expected within the linger, the caller queues its change and the lane groups it with the ones that
     * follow. Without a linger or with groups of one, the same as {@link #WHEN_IDLE}.
     */
    WHEN_QUIET;

    /** Whether the caller may send at all (for an idle lane). */
    public boolean allowed() {
        return this != NEVER;
    }
}
