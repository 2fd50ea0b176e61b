package io.cohort.replication.engine;

import java.time.Duration;

/**
 * How a prepared change leaves the node: {@link SyncDelivery} sends it in the calling thread and
 * waits for the holders, {@link AsyncSender} queues it. Either way, changes of one session leave in
 * the order they were handed in.
 */
public sealed interface ChangeDelivery extends AutoCloseable permits SyncDelivery, AsyncSender {

    /** Sends {@code dispatch} according to the delivery mode; never throws. */
    void deliver(String sessionId, Dispatch dispatch);

    /**
     * Sends {@code dispatch} without making the caller wait for acknowledgements (used at shutdown,
     * where {@link #awaitQuiet} bounds the wait for all of them together).
     */
    void deliverWithoutWaiting(String sessionId, Dispatch dispatch);

    /** Waits until everything handed in has been sent, at most {@code bound}; whether it got there. */
    boolean awaitQuiet(Duration bound) throws InterruptedException;

    /** Changes waiting to be sent. */
    int queued();

    /** Stops; whatever has not been sent yet is abandoned. */
    @Override
    void close();
}
