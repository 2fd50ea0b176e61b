package io.cohort.replication.group;

import io.cohort.replication.engine.Dispatch;
import java.util.concurrent.CompletableFuture;

/**
 * A removal's dispatch and the {@code SharedRemoval}s that go with it ({@link OwedRemovals.Remembered#share}): sent
 * together, by whoever sends the removal (the request thread under synchronous delivery, the session's lane under
 * asynchronous), so that preparing a removal never waits on the network. Like the removal, the share is never dropped:
 * when the engine abandons the dispatch, the removal sends itself and the share goes with it. Done when the removal
 * is applied (a share asks for no acknowledgement).
 */
final class RemovalWithShare implements Dispatch {

    private final Dispatch removal;
    private final Dispatch share;

    RemovalWithShare(Dispatch removal, Dispatch share) {
        this.removal = removal;
        this.share = share;
    }

    @Override
    public void send() {
        removal.send();
        share.send();
    }

    @Override
    public CompletableFuture<Void> applied() {
        return removal.applied();
    }

    @Override
    public boolean abandon() {
        boolean lost = removal.abandon();
        share.send();
        return lost;
    }

    @Override
    public boolean isEmpty() {
        return removal.isEmpty() && share.isEmpty();
    }
}
