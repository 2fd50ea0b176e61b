package io.cohort.node;

import io.cohort.session.LiveSession;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A test double of a store whose early hand-over ({@link SessionStore#handOver}, a redeploy's new version asking for
 * a session) lands late: the session reaches the shared map, and the hand-over is confirmed, only once the test
 * {@link #releaseHandOvers releases} it. A graceful stop's hand-over lands at once.
 */
final class LateHandOverStores extends SingleNodeStoreProvider {

    private final CountDownLatch handOverAsked = new CountDownLatch(1);
    private final Map<String, StoredSession> waiting = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> released = new CompletableFuture<>();

    @Override
    SessionStore newStore(String application) {
        return new Store(application);
    }

    /** Waits until a store was asked to hand a session over ahead of its stop. */
    void awaitHandOverAsked() throws InterruptedException {
        if (!handOverAsked.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("no store was asked for an early hand-over");
        }
    }

    /** The sessions handed over early land in the map, and their hand-overs are confirmed. */
    void releaseHandOvers() {
        copies.putAll(waiting);
        released.complete(null);
    }

    private final class Store extends MapStore {

        Store(String application) {
            super(application);
        }

        @Override public void start(SessionStoreContext context) { }
        @Override public void created(LiveSession session) { }
        @Override public void attributeChanged(LiveSession session, String name) { }
        @Override public void requestCompleted(LiveSession session) { }
        @Override public void idChanged(String oldId, LiveSession session) { }
        @Override public void stop() { }

        @Override
        public void shuttingDown(LiveSession session) {
            session.nextVersion();
            copies.put(key(session.id()), StoredSession.of(session));
        }

        @Override
        public Optional<CompletionStage<Void>> handOver(LiveSession session) {
            session.nextVersion();
            waiting.put(key(session.id()), StoredSession.of(session));
            handOverAsked.countDown();
            return Optional.of(released);
        }

        @Override
        public List<String> copyHolders(String id) {
            return List.of();
        }
    }
}
