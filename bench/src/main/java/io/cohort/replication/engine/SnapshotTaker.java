package io.cohort.replication.engine;

import io.cohort.session.LiveSession;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Bench-side door to the engine's package-private {@link SessionSnapshot}: lives in the engine's
 * package name inside {@code bench/} so the benchmark runs the engine's real snapshot code without
 * the engine exporting it. Not part of the product.
 */
public final class SnapshotTaker {

    private final SessionSnapshot snapshot;

    public SnapshotTaker(MeterRegistry meters, String application) {
        this.snapshot = new SessionSnapshot(new ReplicationMetrics(meters, application));
    }

    /** What the engine emits for the session: its changed attributes, or everything for a full copy. */
    public SessionChange take(LiveSession session, boolean everything) {
        return snapshot.take(session, everything).orElseThrow(() -> new IllegalStateException(
                "session " + session.id() + " has no changes to snapshot"));
    }
}
