package io.cohort.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A web application's {@code WEB-INF/cohort-web.xml} (schema {@code urn:cohort:web:1}): the parts of
 * the node's policy it changes. Every absent value means "inherit from the node". Apply it with
 * {@link ClusterConfig#forWebApp} and {@link SerializationConfig#merge}.
 *
 * @param replication   the {@code <replication>} element, if present
 * @param serialization the {@code <serialization>} element, if present
 */
public record WebAppOverride(Optional<Replication> replication, Optional<SerializationOverride> serialization) {

    /** An application without {@code cohort-web.xml}: changes nothing. */
    public static final WebAppOverride NONE = new WebAppOverride(Optional.empty(), Optional.empty());

    public WebAppOverride {
        Objects.requireNonNull(replication, "replication");
        Objects.requireNonNull(serialization, "serialization");
    }

    /** The override's serialization part, or {@link SerializationOverride#NONE}. */
    public SerializationOverride serializationOrNone() {
        return serialization.orElse(SerializationOverride.NONE);
    }

    /**
     * {@code <replication>}: the attributes of {@code <cluster>} and the policy and delivery
     * elements, each optional. {@code enabled=false} keeps the application's sessions local.
     */
    public record Replication(Optional<Boolean> enabled, Optional<Integer> writeQuota, Optional<Boolean> allowColocation,
                              Optional<Duration> cacheMissDelay, Optional<Trigger> trigger, Optional<Scope> scope,
                              Optional<DeliveryOverride> delivery) {

        public Replication {
            Objects.requireNonNull(enabled, "enabled");
            Objects.requireNonNull(writeQuota, "writeQuota");
            Objects.requireNonNull(allowColocation, "allowColocation");
            Objects.requireNonNull(cacheMissDelay, "cacheMissDelay");
            Objects.requireNonNull(trigger, "trigger");
            Objects.requireNonNull(scope, "scope");
            Objects.requireNonNull(delivery, "delivery");
        }
    }

    /** A delivery element of {@code cohort-web.xml}; its attribute may be absent. */
    public sealed interface DeliveryOverride permits SyncOverride, AsyncOverride {
    }

    /** {@code <synchronous-replication timeout="..."/>}, timeout optional. */
    public record SyncOverride(Optional<Duration> timeout) implements DeliveryOverride {
        public SyncOverride {
            Objects.requireNonNull(timeout, "timeout");
        }
    }

    /** {@code <asynchronous-replication queue-capacity="..."/>}, capacity optional. */
    public record AsyncOverride(Optional<Integer> queueCapacity) implements DeliveryOverride {
        public AsyncOverride {
            Objects.requireNonNull(queueCapacity, "queueCapacity");
        }
    }
}
