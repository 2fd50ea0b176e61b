package io.cohort.config;

import java.time.Duration;
import java.util.Objects;

/**
 * A transport over a group of members ({@code <peer>} or {@code <multicast>}), as opposed to a
 * shared database: changes travel as group messages between the nodes.
 */
public sealed interface GroupProtocol extends ProtocolConfig permits PeerProtocol, MulticastProtocol {

    /**
     * The most queued asynchronous changes one send lane puts into a single group message; 1 sends
     * every change alone. Bundling only takes what is already queued, so it never delays a change.
     */
    int batchSize();

    /**
     * How long a send lane that woke for an asynchronous change sleeps before it takes what else was queued
     * meanwhile (at most {@link #batchSize()} in all); zero takes only what is already queued. The lane sleeps
     * rather than waits on its queue, so the changes arriving meanwhile do not each wake it up: at 2 ms a busy
     * node sends several changes per message and pays one wake-up for all of them. Changes leave at most this
     * much later. Irrelevant when {@link #batchSize()} is 1.
     */
    Duration flushInterval();

    /** @throws IllegalArgumentException for a batch size below 1 or a negative or null flush interval */
    static void checkBundling(int batchSize, Duration flushInterval) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
        }
        Objects.requireNonNull(flushInterval, "flushInterval");
        if (flushInterval.isNegative()) {
            throw new IllegalArgumentException("flushInterval must not be negative: " + flushInterval);
        }
    }
}
