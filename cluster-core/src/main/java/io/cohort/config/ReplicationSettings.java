package io.cohort.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The replication policy of a cluster, or of one web application after {@link #apply}: the
 * attributes of {@code <cluster>} plus {@code <replication-policy>} and the delivery element.
 * Semantics in DESIGN.md section 3.
 *
 * @param writeQuota      how many other members hold a copy of each session (≥ 1)
 * @param allowColocation whether a copy may sit on a member with the owner's host
 * @param cacheMissDelay  how long a request for a session held elsewhere waits for it
 * @param trigger         when changes are sent
 * @param scope           what a change contains
 * @param delivery        whether the request waits for the holders
 */
public record ReplicationSettings(int writeQuota, boolean allowColocation, Duration cacheMissDelay,
                                  Trigger trigger, Scope scope, Delivery delivery) {

    public ReplicationSettings {
        if (writeQuota < 1) {
            throw new IllegalArgumentException("writeQuota must be at least 1: " + writeQuota);
        }
        Objects.requireNonNull(cacheMissDelay, "cacheMissDelay");
        Objects.requireNonNull(trigger, "trigger");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(delivery, "delivery");
    }

    /**
     * These settings with a web application's overrides: every value the override states wins, every
     * absent one is inherited. Switching delivery keeps the node's timeout or capacity when the
     * node already uses that delivery, and otherwise takes the schema default
     * ({@link Delivery.Sync#DEFAULT}, {@link Delivery.Async#DEFAULT}). {@code enabled} is not a
     * setting of this record; see {@link ClusterConfig#forWebApp}.
     */
    public ReplicationSettings apply(WebAppOverride.Replication o) {
        return new ReplicationSettings(
                o.writeQuota().orElse(writeQuota),
                o.allowColocation().orElse(allowColocation),
                o.cacheMissDelay().orElse(cacheMissDelay),
                o.trigger().orElse(trigger),
                o.scope().orElse(scope),
                o.delivery().map(this::deliveryWith).orElse(delivery));
    }

    private Delivery deliveryWith(WebAppOverride.DeliveryOverride override) {
        if (override instanceof WebAppOverride.SyncOverride sync) {
            Delivery.Sync base = delivery instanceof Delivery.Sync s ? s : Delivery.Sync.DEFAULT;
            return sync.timeout().map(Delivery.Sync::new).orElse(base);
        }
        WebAppOverride.AsyncOverride async = (WebAppOverride.AsyncOverride) override;
        Delivery.Async base = delivery instanceof Delivery.Async a ? a : Delivery.Async.DEFAULT;
        return async.queueCapacity().map(Delivery.Async::new).orElse(base);
    }
}
