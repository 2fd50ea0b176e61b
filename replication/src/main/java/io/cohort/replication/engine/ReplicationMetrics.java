package io.cohort.replication.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.function.Supplier;

/**
 * The meters of one application's replication, all named {@code cohort.replication.*} and tagged
 * with {@code app}. Counters exist from the start (at zero), so "nothing was sent" is observable.
 * Gauges registered through {@link #gauge} are removed again by {@link #close()}, so a redeployed
 * application does not keep reporting its predecessor. Thread-safe.
 */
public final class ReplicationMetrics implements AutoCloseable {

    public static final String CHANGES = "cohort.replication.changes";
    public static final String BYTES = "cohort.replication.bytes";
    public static final String MESSAGES = "cohort.replication.messages";
    public static final String ATTRIBUTES = "cohort.replication.attributes";
    public static final String SYNC_LATENCY = "cohort.replication.sync.latency";
    public static final String SYNC_TIMEOUTS = "cohort.replication.sync.timeouts";
    public static final String QUEUE_DEPTH = "cohort.replication.async.queue.depth";
    public static final String DROPPED = "cohort.replication.async.dropped";
    public static final String OWNED = "cohort.replication.sessions.owned";
    public static final String BACKUPS = "cohort.replication.sessions.backup";
    public static final String QUOTA_DEFICIT = "cohort.replication.write.quota.deficit";
    public static final String TAKEOVERS = "cohort.replication.takeovers";
    public static final String LOOKUPS = "cohort.replication.lookups";
    public static final String REJECTED = "cohort.replication.messages.rejected";
    public static final String CONNECTIONS_REFUSED = "cohort.replication.connections.refused";
    public static final String FAILURES = "cohort.replication.failures";
    public static final String GAPS = "cohort.replication.gaps";
    public static final String CONFLICTS = "cohort.replication.conflicts";

    /** {@code direction} tag values. */
    public static final String SENT = "sent";
    public static final String RECEIVED = "received";

    /** {@code outcome} tag values of {@link #LOOKUPS}. */
    public enum LookupOutcome {
        FOUND_LOCAL("found-local"), FOUND_REMOTE("found-remote"), NOT_FOUND("not-found");

        private final String tag;

        LookupOutcome(String tag) {
            this.tag = tag;
        }

        public String tag() {
            return tag;
        }
    }

    private final MeterRegistry registry;
    private final String application;
    private final Counter changesSent;
    private final Counter bytesSent;
    private final Counter messagesSent;
    private final Counter bytesReceived;
    private final Counter attributesSent;
    private final Timer syncLatency;
    private final Counter syncTimeouts;
    private final Counter dropped;
    private final Counter takeovers;
    private final Counter failures;
    private final Counter conflicts;

    public ReplicationMetrics(MeterRegistry registry, String application) {
        this.registry = registry;
        this.application = application;
        Tags app = Tags.of("app", application);
        this.changesSent = registry.counter(CHANGES, app.and("direction", SENT));
        this.bytesSent = registry.counter(BYTES, app.and("direction", SENT));
        this.messagesSent = registry.counter(MESSAGES, app.and("direction", SENT));
        this.attributesSent = registry.counter(ATTRIBUTES, app.and("direction", SENT));
        ReceivedMeters.register(registry, application);
        this.bytesReceived = registry.counter(BYTES, app.and("direction", RECEIVED));
        this.syncLatency = Timer.builder(SYNC_LATENCY).tags(app).publishPercentileHistogram()
                .description("time until every holder acknowledged a synchronous change").register(registry);
        this.syncTimeouts = registry.counter(SYNC_TIMEOUTS, app);
        this.dropped = registry.counter(DROPPED, app);
        this.takeovers = registry.counter(TAKEOVERS, app);
        this.failures = registry.counter(FAILURES, app);
        this.conflicts = registry.counter(CONFLICTS, app);
        for (LookupOutcome outcome : LookupOutcome.values()) {
            registry.counter(LOOKUPS, app.and("outcome", outcome.tag()));
        }
    }

    /** Counts a change a holder could not apply because it did not follow its copy's version. */
    public static void gap(MeterRegistry registry, String application) {
        registry.counter(GAPS, "app", application).increment();
    }

    /** Counts a received frame that could not be decoded or authenticated. */
    public static Counter rejected(MeterRegistry registry) {
        return registry.counter(REJECTED);
    }

    /**
     * Connections to the replication port that the blocking TCP transport refused before reading a message from them:
     * a failed TLS handshake (a host without the cluster's key), a wrong greeting, no greeting in time.
     */
    public static Counter refusedConnections(MeterRegistry registry) {
        return registry.counter(CONNECTIONS_REFUSED);
    }

    public String application() {
        return application;
    }

    /**
     * A change left the node: {@code attributes} attributes set or removed, {@code bytes} bytes put on
     * the wire in total (a change sent to two holders counts its frame twice; a multicast once).
     */
    public void sent(int attributes, long bytes) {
        changesSent.increment();
        attributesSent.increment(attributes);
        bytesSent.increment(bytes);
    }

    /**
     * Group messages that carried this application's changes, removals, touches and releases (group
     * protocols only): one per frame, or one per bundle of frames. Changes per message show how much
     * bundling saves.
     */
    public void messagesSent(long messages) {
        messagesSent.increment(messages);
    }

    /** Other outgoing traffic of this application (removals, touches, lookups, copies for rebalancing). */
    public void sentBytes(long bytes) {
        bytesSent.increment(bytes);
    }

    /** Other incoming traffic of this application: a session read from the database to take it over. */
    public void receivedBytes(long bytes) {
        bytesReceived.increment(bytes);
    }

    public Timer syncLatency() {
        return syncLatency;
    }

    public void syncTimedOut() {
        syncTimeouts.increment();
    }

    public void dropped() {
        dropped.increment();
    }

    public void tookOver() {
        takeovers.increment();
    }

    public void failed() {
        failures.increment();
    }

    /**
     * A write was refused because another node owns the session now (database protocol: the
     * optimistic version/owner check matched no row).
     */
    public void conflicted() {
        conflicts.increment();
    }

    public void lookedUp(LookupOutcome outcome) {
        registry.counter(LOOKUPS, "app", application, "outcome", outcome.tag()).increment();
    }

    /**
     * Registers a gauge of this application that {@link #close()} withdraws. While several deployments of the
     * application run (a redeploy), the newest one still open reports; when it closes, the one before it reports
     * again ({@link VersionedGauges}).
     */
    public void gauge(String name, Supplier<Number> value) {
        VersionedGauges.register(registry, name, application, this, value);
    }

    /** Withdraws this instance's gauges; a gauge an older deployment still reports stays, with its value. */
    @Override
    public void close() {
        VersionedGauges.unregister(registry, this);
    }
}
