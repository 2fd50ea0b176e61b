package io.cohort.node;

import io.cohort.session.LiveSession;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test double of an onShutdown store whose hand-over lands late: stores share one in-memory map,
 * written only when a stopping version hands its sessions over, and a store writes what it was
 * handed only in its {@code stop()}, once the test {@link #releaseHandOver releases} it. So between
 * the moment a stopping version has dropped its sessions from memory and the moment they are in the
 * map, a test can see who loads them too early.
 */
final class HandOverAtStopStores extends SingleNodeStoreProvider {

    private final CountDownLatch handingOver = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);

    @Override
    SessionStore newStore(String application) {
        return new Store(application);
    }

    /** Waits until a stopping version's store has sessions to hand over and is waiting for {@link #releaseHandOver}. */
    void awaitHandingOver() throws InterruptedException {
        if (!handingOver.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("no store began a hand-over");
        }
    }

    void releaseHandOver() {
        release.countDown();
    }

    private final class Store extends MapStore {
        private final List<StoredSession> handedOver = new CopyOnWriteArrayList<>();

        Store(String application) {
            super(application);
        }

        @Override public void start(SessionStoreContext context) { }
        @Override public void created(LiveSession session) { }
        @Override public void attributeChanged(LiveSession session, String name) { }
        @Override public void requestCompleted(LiveSession session) { }
        @Override public void idChanged(String oldId, LiveSession session) { }

        @Override
        public void shuttingDown(LiveSession session) {
            session.nextVersion();
            handedOver.add(StoredSession.of(session));
        }

        @Override
        public void stop() {
            if (handedOver.isEmpty()) {
                return;
            }
            handingOver.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            handedOver.forEach(session -> copies.put(key(session.id()), session));
        }

        @Override
        public List<String> copyHolders(String id) {
            return List.of();
        }
    }
}
