package io.cohort.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether a request waits for its session's changes to reach the holders (DESIGN.md section 3).
 * Configured by {@code <synchronous-replication>} or {@code <asynchronous-replication>};
 * neither means {@link Async#DEFAULT}.
 */
public sealed interface Delivery permits Delivery.Async, Delivery.Sync {

    /**
     * The request does not wait; per-session order is kept; at most {@code queueCapacity} changes
     * wait to be sent and a full queue makes the caller wait (back-pressure, never unbounded memory).
     */
    record Async(int queueCapacity) implements Delivery {

        /** {@code <asynchronous-replication/>} with its schema default, also used when the element is absent. */
        public static final Async DEFAULT = new Async(10_000);

        public Async {
            if (queueCapacity < 1) {
                throw new IllegalArgumentException("queue-capacity must be at least 1: " + queueCapacity);
            }
        }
    }

    /**
     * The request waits until the holders acknowledge the change, or until {@code timeout}; then it
     * continues, and the miss is logged and counted.
     */
    record Sync(Duration timeout) implements Delivery {

        /** {@code <synchronous-replication/>} with its schema default. */
        public static final Sync DEFAULT = new Sync(Duration.ofSeconds(2));

        public Sync {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be above zero: " + timeout);
            }
        }
    }
}
