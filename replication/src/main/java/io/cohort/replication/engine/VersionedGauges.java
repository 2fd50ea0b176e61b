package io.cohort.replication.engine;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;

/**
 * The gauges that the versions of one application report under one name (a redeploy runs two versions for a while):
 * the newest version still open reports, and when it closes the one before it reports again, so a new version that
 * fails to start leaves the version serving on with its gauges. One gauge per name and application is registered;
 * it reads the newest version's value. Thread-safe.
 */
final class VersionedGauges {

    /** Per registry (held weakly: a registry that is gone takes its slots with it), the slots by name and application. */
    private static final Map<MeterRegistry, Map<String, Slot>> SLOTS = Collections.synchronizedMap(new WeakHashMap<>());

    private VersionedGauges() {
    }

    /** {@code owner}'s value for the gauge {@code name} of {@code application}; it reports until a newer owner's does. */
    static void register(MeterRegistry registry, String name, String application, Object owner, Supplier<Number> value) {
        synchronized (SLOTS) {
            Map<String, Slot> slots = SLOTS.computeIfAbsent(registry, r -> new HashMap<>());
            Slot slot = slots.computeIfAbsent(name + '\u0000' + application, key -> new Slot());
            if (slot.values.isEmpty()) {
                slot.gauge = Gauge.builder(name, slot, Slot::current).tags("app", application).strongReference(true)
                        .register(registry);
            }
            slot.values.addLast(new Registration(owner, value));
        }
    }

    /** Withdraws every value {@code owner} registered; a gauge no version reports any more is removed. */
    static void unregister(MeterRegistry registry, Object owner) {
        synchronized (SLOTS) {
            Map<String, Slot> slots = SLOTS.get(registry);
            if (slots == null) {
                return;
            }
            for (Iterator<Slot> it = slots.values().iterator(); it.hasNext(); ) {
                Slot slot = it.next();
                slot.values.removeIf(registration -> registration.owner == owner);
                if (slot.values.isEmpty()) {
                    registry.remove(slot.gauge);
                    it.remove();
                }
            }
        }
    }

    private record Registration(Object owner, Supplier<Number> value) {
    }

    /** The versions' values of one gauge, oldest first. Guarded by {@link #SLOTS}. */
    private static final class Slot {
        private final Deque<Registration> values = new ArrayDeque<>();
        private Gauge gauge;

        double current() {
            Registration newest;
            synchronized (SLOTS) {
                newest = values.peekLast();
            }
            return newest == null ? Double.NaN : newest.value().get().doubleValue();
        }
    }
}
