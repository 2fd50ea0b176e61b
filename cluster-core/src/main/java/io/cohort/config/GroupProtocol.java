package io.cohort.config;

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

    /** @throws IllegalArgumentException for a batch size below 1 */
    static void checkBatchSize(int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
        }
    }
}
