package io.cohort.replication.database;

import io.cohort.replication.engine.ChangeNotAppliedException;
import io.cohort.replication.engine.Dispatch;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One prepared {@link DatabaseWrite}. {@link #send()} writes it in the calling thread in a
 * transaction of its own; the asynchronous sender may instead hand several to
 * {@link DatabaseSessionTransport#writeAll} to share a transaction. {@link #applied()} completes when
 * the write ended: normally when it was written (or had nothing to write), with
 * {@link ChangeNotAppliedException} when it failed, was refused (another node owns the session, or the row's
 * version did not match) or was abandoned. Failures are counted by the transport.
 */
final class DatabaseDispatch implements Dispatch {

    private final DatabaseSessionTransport transport;
    private final DatabaseWrite write;
    private final boolean acknowledged;
    /** For a change: the state its session had here when it was prepared (one ownership of it); else null. */
    private final TrackedSessions.State preparedUnder;
    private final CompletableFuture<Void> applied = new CompletableFuture<>();

    DatabaseDispatch(DatabaseSessionTransport transport, DatabaseWrite write, boolean acknowledged) {
        this(transport, write, acknowledged, null);
    }

    DatabaseDispatch(DatabaseSessionTransport transport, DatabaseWrite write, boolean acknowledged,
            TrackedSessions.State preparedUnder) {
        this.transport = transport;
        this.write = write;
        this.acknowledged = acknowledged;
        this.preparedUnder = preparedUnder;
    }

    DatabaseWrite write() {
        return write;
    }

    /** The state the session had here when this change was prepared; null for a removal or a touch. */
    TrackedSessions.State preparedUnder() {
        return preparedUnder;
    }

    /** Whether the engine waits for this write (synchronous delivery, shutdown hand-over). */
    boolean acknowledged() {
        return acknowledged;
    }

    /** The write ended; unless {@link #notApplied} said otherwise, it was applied. */
    void done() {
        applied.complete(null);
    }

    /** The write did not reach the database, or the database refused it. */
    void notApplied(String why) {
        applied.completeExceptionally(new ChangeNotAppliedException("session " + write.sessionId() + ": " + why));
    }

    @Override
    public void send() {
        transport.writeAll(List.of(this), acknowledged);
    }

    @Override
    public CompletableFuture<Void> applied() {
        return applied;
    }

    /** The write is lost; a removal among them stays pending and is retried by the sweeps. */
    @Override
    public boolean abandon() {
        transport.abandoned(this);
        notApplied("abandoned: the queue was full");
        return true;
    }

    @Override
    public boolean isEmpty() {
        return false;
    }

    @Override
    public String toString() {
        return "DatabaseDispatch[" + write + "]";
    }
}
