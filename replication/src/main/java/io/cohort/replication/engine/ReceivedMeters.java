package io.cohort.replication.engine;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The counters of what this node receives, per application (deployed here or not): {@code
 * cohort.replication.changes} and {@code cohort.replication.bytes} with {@code direction=received}. Each
 * application's counters are looked up in the registry once and kept: a holder counts every message it receives,
 * and a registry lookup per message (building the tags, hashing the meter id) cost about as much as storing the
 * change. Thread-safe.
 */
public final class ReceivedMeters {

    private record Counters(Counter changes, Counter bytes) {
    }

    private final MeterRegistry registry;
    private final ConcurrentMap<String, Counters> byApplication = new ConcurrentHashMap<>();

    public ReceivedMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A session change for {@code application} arrived, {@code bytes} long. */
    public void change(String application, long bytes) {
        Counters counters = of(application);
        counters.changes.increment();
        counters.bytes.increment(bytes);
    }

    /** Other traffic for {@code application} arrived (a removal, touch, release or takeover notice). */
    public void bytes(String application, long bytes) {
        of(application).bytes.increment(bytes);
    }

    /** Registers an application's received counters at zero, so that "nothing arrived" is observable. */
    static void register(MeterRegistry registry, String application) {
        counters(registry, application);
    }

    private Counters of(String application) {
        Counters counters = byApplication.get(application);
        return counters != null ? counters : byApplication.computeIfAbsent(application, app -> counters(registry, app));
    }

    private static Counters counters(MeterRegistry registry, String application) {
        Tags tags = Tags.of("app", application, "direction", ReplicationMetrics.RECEIVED);
        return new Counters(registry.counter(ReplicationMetrics.CHANGES, tags),
                registry.counter(ReplicationMetrics.BYTES, tags));
    }
}
