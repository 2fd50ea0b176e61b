package io.cohort.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code <multicast>}: IP multicast between members (JGroups UDP).
 *
 * @param ip          the multicast group address
 * @param port        the multicast port
 * @param bindAddress the interface used for cluster traffic
 * @param ttl         the multicast time-to-live, 0 to 255
 * @param stack       a JGroups stack file replacing the built-in one (absolute path)
 * @param batchSize     the most queued asynchronous changes a send lane puts into one group message
 *                      (1: every change alone)
 * @param flushInterval how long a send lane waits for changes to join its group message
 */
public record MulticastProtocol(String ip, int port, String bindAddress, int ttl, Optional<Path> stack, int batchSize,
                                Duration flushInterval) implements GroupProtocol {

    public MulticastProtocol {
        Objects.requireNonNull(ip, "ip");
        Ports.check("port", port, 1);
        Objects.requireNonNull(bindAddress, "bindAddress");
        if (ttl < 0 || ttl > 255) {
            throw new IllegalArgumentException("ttl must be from 0 to 255: " + ttl);
        }
        Objects.requireNonNull(stack, "stack");
        GroupProtocol.checkBundling(batchSize, flushInterval);
    }
}
