package io.cohort.node;

import io.cohort.session.LiveSession;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import java.util.List;
import java.util.function.Function;

/**
 * A test double of a replicating store provider for testing the node's side of takeover: every
 * node started with the same instance shares one in-memory map of session copies, written in full
 * at each request end. It is not a transport; it exercises the adapter, the deserialization filter
 * and the cookie handling of nodes in one JVM.
 */
final class SharedMemoryStores extends SingleNodeStoreProvider {

    /** The inactive intervals (ms) of sessions whose store was told the interval changed, in order. */
    final List<Long> intervalChanges = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The names of attributes whose change any store was told of, in order. */
    final List<String> attributeChanges = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** How often any store heard {@code requestCompleted}, by {@code application/id}. */
    final java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> completions = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Sessions, by {@code application/id}, whose in-memory copy a store is to find stale at the next request (another
     * node took them over without this one hearing): it evicts the copy then, as a store over a shared database does.
     */
    final java.util.Set<String> staleCopies = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Session ids the stores name as orphans to end ({@link SessionStore#expiredOrphans}), whatever their copies. */
    final java.util.Set<String> orphans = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** The routes the stores name as a session's copy holders, by session id. */
    private final Function<String, List<String>> holders;

    SharedMemoryStores(List<String> holders) {
        this(id -> holders);
    }

    SharedMemoryStores(Function<String, List<String>> holders) {
        this.holders = holders;
    }

    @Override
    SessionStore newStore(String application) {
        return new Store(application);
    }

    private final class Store extends MapStore {

        Store(String application) {
            super(application);
        }

        private volatile SessionStoreContext context;

        @Override public void start(SessionStoreContext context) {
            this.context = context;
        }

        @Override
        public java.util.Set<String> expiredOrphans(java.time.Instant now) {
            return java.util.Set.copyOf(orphans);
        }

        @Override
        public java.util.Optional<StoredSession> loadToEnd(String id) {
            return load(id).filter(copy -> copy.expiredBeyondDoubtAt(java.time.Instant.now()));
        }

        @Override
        public boolean copyStale(String id) {
            if (!staleCopies.remove(key(id))) {
                return false;
            }
            context.cache().evict(id);
            return true;
        }

        @Override public void stop() { }
        @Override public void created(LiveSession session) { }
        @Override
        public void attributeChanged(LiveSession session, String name) {
            attributeChanges.add(name);
        }

        @Override
        public void requestCompleted(LiveSession session) {
            awaitCompletionHold(session.id());
            completions.computeIfAbsent(key(session.id()), k -> new java.util.concurrent.atomic.AtomicInteger()).incrementAndGet();
            if (session.maxInactiveChanged()) {
                intervalChanges.add(session.maxInactiveMillis());
            }
            session.nextVersion();
            copies.put(key(session.id()), StoredSession.of(session));
            session.markReplicated();
        }

        @Override
        public void shuttingDown(LiveSession session) {
            requestCompleted(session);
        }

        @Override
        public void idChanged(String oldId, LiveSession session) {
            copies.remove(key(oldId));
            requestCompleted(session);
        }

        @Override
        public List<String> copyHolders(String id) {
            return holders.apply(id);
        }
    }
}
