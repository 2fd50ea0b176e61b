package io.cohort.replication.engine;

import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** A transport that records what the engine hands it and "sends" at once. */
final class RecordingTransport implements SessionTransport {

    final List<SessionChange> changes = new CopyOnWriteArrayList<>();
    final List<String> removals = new CopyOnWriteArrayList<>();
    final List<String> touches = new CopyOnWriteArrayList<>();
    final List<Boolean> acknowledged = new CopyOnWriteArrayList<>();
    final Set<String> tracked = ConcurrentHashMap.newKeySet();
    final Map<String, StoredSession> copies = new ConcurrentHashMap<>();
    /** When set, every change is missed by its holders: {@link Dispatch#applied()} fails. */
    volatile boolean holdersMiss;

    @Override
    public boolean tracks(String sessionId) {
        return tracked.contains(sessionId);
    }

    @Override
    public Dispatch prepare(SessionChange change, boolean ack) {
        tracked.add(change.id());
        changes.add(change);
        acknowledged.add(ack);
        copies.merge(change.id(), change.applyTo(null), (old, ignored) -> change.applyTo(old));
        return sent(holdersMiss);
    }

    @Override
    public Dispatch prepareRemoval(String sessionId, RemovalCause cause) {
        boolean known = tracked.remove(sessionId);
        copies.remove(sessionId);
        if (known) {
            removals.add(sessionId);
        }
        return Dispatch.NONE;
    }

    @Override
    public Dispatch prepareTouch(String sessionId, long version, Instant lastAccessed, long maxInactiveMillis) {
        touches.add(sessionId);
        return Dispatch.NONE;
    }

    @Override
    public void forget(String sessionId) {
        tracked.remove(sessionId);
    }

    @Override
    public Optional<StoredSession> takeOver(String sessionId, Duration wait) {
        return Optional.ofNullable(copies.get(sessionId));
    }

    @Override
    public boolean holdsCopy(String sessionId) {
        return copies.containsKey(sessionId);
    }

    @Override
    public void close() {
    }

    private static Dispatch sent(boolean missed) {
        return new Dispatch() {
            @Override
            public void send() {
            }

            @Override
            public CompletableFuture<Void> applied() {
                return missed ? CompletableFuture.failedFuture(new ChangeNotAppliedException("missed"))
                        : CompletableFuture.completedFuture(null);
            }

            @Override
            public boolean abandon() {
                return true;
            }

            @Override
            public boolean isEmpty() {
                return false;
            }
        };
    }
}
