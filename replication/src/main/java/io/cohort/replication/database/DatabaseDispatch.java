package io.cohort.replication.database;

import io.cohort.replication.engine.Dispatch;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One prepared {@link DatabaseWrite}. {@link #send()} writes it in the calling thread in a
 * transaction of its own; the asynchronous sender may instead hand several to
 * {@link DatabaseSessionTransport#writeAll} to share a transaction. {@link #applied()} completes when
 * the write ended, whatever its outcome (failures are counted by the transport).
 */
final class DatabaseDispatch implements Dispatch {

    private final DatabaseSessionTransport transport;
    private final DatabaseWrite write;
    private final boolean acknowledged;
    private final CompletableFuture<Void> applied = new CompletableFuture<>();

    DatabaseDispatch(DatabaseSessionTransport transport, DatabaseWrite write, boolean acknowledged) {
        this.transport = transport;
        this.write = write;
        this.acknowledged = acknowledged;
    }

    DatabaseWrite write() {
        return write;
    }

    /** Whether the engine waits for this write (synchronous delivery, shutdown hand-over). */
    boolean acknowledged() {
        return acknowledged;
    }

    void done() {
        applied.complete(null);
    }

    @Override
    public void send() {
        transport.writeAll(List.of(this), acknowledged);
    }

    @Override
    public CompletableFuture<Void> applied() {
        return applied;
    }

    @Override
    public void abandon() {
        transport.abandoned(this);
        done();
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
