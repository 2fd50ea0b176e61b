package io.cohort.session.jetty;

import io.cohort.session.RemovalCause;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;
import org.eclipse.jetty.session.DefaultSessionCache;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.SessionData;
import org.eclipse.jetty.session.SessionManager;
import org.eclipse.jetty.util.thread.AutoLock;

/**
 * Jetty's in-memory session cache, with the three moments the store must hear about that Jetty's
 * data-store interface does not tell apart: a session id change (reported as one event rather than
 * a delete plus a store), removal with its cause (invalidated or expired), and a graceful shutdown
 * (every owned session is handed to the store, changed or not); and, for a redeploy's new version that needs one
 * session before this version stops, the hand-over of that session alone ({@link #handOver}).
 */
public final class CohortSessionCache extends DefaultSessionCache {

    /** How often a request looks its session up again when it was evicted under the request (a bound, not a retry policy). */
    private static final int MAX_LOOKUPS_AFTER_EVICTION = 3;
    /**
     * The most orphans one sweep ends ({@link #checkExpiration}): each is a takeover, on the node's one sweeper thread,
     * which also ends every application's own expired sessions.
     */
    static final int MAX_ORPHANS_PER_SWEEP = 200;
    /** How long one sweep may spend ending orphans; those it did not reach are named again by the next sweep. */
    static final Duration ORPHAN_SWEEP_BUDGET = Duration.ofSeconds(10);

    private final ConcurrentMap<String, ManagedSession> sessions;
    private final SessionStoreAdapter adapter;
    /** The lookups in progress, by session id: callers asking for the same id wait for the one that runs. */
    private final ConcurrentMap<String, CompletableFuture<ManagedSession>> lookups = new ConcurrentHashMap<>();
    private final Set<String> evictOnRelease = ConcurrentHashMap.newKeySet();
    /**
     * Orphans this thread's sweep named expired ({@link #checkExpiration}) that {@link #delete} is to load and end.
     * Per thread: Jetty ends what the sweep named in the sweep's thread, and a request that invalidates one of those
     * sessions meanwhile must be deleted as any other.
     */
    private final ThreadLocal<Set<String>> orphansToEnd = ThreadLocal.withInitial(HashSet::new);
    /** When the current sweep's time for ending orphans is up (epoch millis; 0 until it ends its first orphan). */
    private volatile long orphansEndedUntil;
    /** Hand-overs asked for while a request of this version still used the session: done when the last one ends. */
    private final ConcurrentMap<String, CompletableFuture<Void>> handOverOnRelease = new ConcurrentHashMap<>();
    /** Sessions handed over ahead of the stop whose store has not confirmed them yet. */
    private final ConcurrentMap<String, CompletionStage<Void>> handingOver = new ConcurrentHashMap<>();
    /** The sessions dropped from memory since the shutdown began: on their way to the store. */
    private final Set<String> handedToStore = ConcurrentHashMap.newKeySet();
    private volatile boolean shuttingDown;

    public CohortSessionCache(SessionManager manager, SessionStoreAdapter adapter) {
        this(manager, adapter, new ConcurrentHashMap<>());
    }

    private CohortSessionCache(SessionManager manager, SessionStoreAdapter adapter,
            ConcurrentMap<String, ManagedSession> sessions) {
        super(manager, sessions);
        this.sessions = sessions;
        this.adapter = adapter;
        setSessionDataStore(adapter);
        setFlushOnResponseCommit(true);
    }

    /** Every session, created or loaded, is attached to its tracked data, which then knows when it is being invalidated. */
    @Override
    public ManagedSession newSession(SessionData data) {
        ManagedSession session = super.newSession(data);
        if (data instanceof TrackedSessionData tracked) {
            tracked.attach(session);
        }
        return session;
    }

    /**
     * Jetty looks a session up inside the session map's {@code computeIfAbsent}, which locks a bin of the map for as
     * long as the store takes: for a replicating store, a lookup across the cluster of up to {@code cache-miss-delay}.
     * Sessions whose ids share the bin could not be created, removed or taken over meanwhile, and a growing map
     * stalls every insert. Here only callers asking for the same id wait for the lookup; it runs outside the map.
     * Like {@code computeIfAbsent}, a caller that waited for a lookup that found nothing runs its own.
     */
    @Override
    protected ManagedSession doComputeIfAbsent(String id, Function<String, ManagedSession> lookup) {
        while (true) {
            ManagedSession held = sessions.get(id);
            if (held != null) {
                return held;
            }
            CompletableFuture<ManagedSession> mine = new CompletableFuture<>();
            CompletableFuture<ManagedSession> running = lookups.putIfAbsent(id, mine);
            if (running == null) {
                return lookUp(id, lookup, mine);
            }
            ManagedSession found = running.exceptionally(failure -> null).join();
            if (found != null) {
                return found;
            }
        }
    }

    private ManagedSession lookUp(String id, Function<String, ManagedSession> lookup,
            CompletableFuture<ManagedSession> mine) {
        ManagedSession result = null;
        try {
            // a lookup that ended between this caller's first look and its claim has put its session in the map
            result = sessions.get(id);
            if (result == null) {
                ManagedSession loaded = lookup.apply(id);
                if (loaded != null) {
                    ManagedSession added = (ManagedSession) doPutIfAbsent(id, loaded);
                    result = added != null ? added : loaded;
                }
            }
            return result;
        } finally {
            lookups.remove(id, mine);
            mine.complete(result);
        }
    }

    /**
     * A session evicted (taken over by another node) between Jetty finding it in memory and the request entering it
     * is left non-resident, and Jetty's cache, which never evicts on its own, would then give the request no session
     * at all: the application would start a new one and the user's cookie would lose the old. Such a request looks
     * the session up again instead, from the store, as a request that arrived just after the eviction does. Before a
     * request enters a session held in memory, the store may find that copy stale ({@link SessionStoreAdapter#copyStale}:
     * another node took the session over without this node hearing of it); it evicts it, and the request loads the
     * session from the store.
     */
    @Override
    protected ManagedSession getAndEnter(String id, boolean enter) throws Exception {
        if (enter && doGet(id) != null) {
            adapter.copyStale(id);
        }
        for (int attempt = 1; ; attempt++) {
            ManagedSession held = doGet(id);
            ManagedSession session = super.getAndEnter(id, enter);
            boolean evictedMeanwhile = held != null && held.getSessionData() instanceof TrackedSessionData data
                    && data.evicted();
            if (session != null || !evictedMeanwhile || attempt == MAX_LOOKUPS_AFTER_EVICTION) {
                return session;
            }
        }
    }

    /**
     * Jetty's sweep ends every id whose inactivity timer went off since the last sweep, up to a minute earlier, and
     * does so in every application of the node. By then the session may have been taken over by another node and back
     * (a new session object, in use again), or be held elsewhere only. Only a session this cache holds that has
     * expired by now is ended; the others are left to their owner, whose own timer decides.
     *
     * <p>The sweep also ends the sessions of owners that are gone which the store names this node to end
     * ({@link SessionStoreAdapter#expiredOrphans}), at most {@link #MAX_ORPHANS_PER_SWEEP} and for at most
     * {@link #ORPHAN_SWEEP_BUDGET}: {@link #delete} loads each and ends it through the application, as its owner would
     * have.
     */
    @Override
    public Set<String> checkExpiration(Set<String> candidates) {
        // this node's own sessions first: Jetty ends them in this order, and orphans take longer (a takeover each)
        Set<String> expired = new LinkedHashSet<>(super.checkExpiration(candidates));
        long now = System.currentTimeMillis();
        expired.removeIf(id -> !heldAndExpiredAt(id, now));
        orphansEndedUntil = 0; // set at the first orphan's end: this node's own sessions go first
        Set<String> named = orphansToEnd.get();
        named.clear(); // the last sweep's, should one not have reached delete
        for (String orphan : adapter.expiredOrphans(now)) {
            if (named.size() == MAX_ORPHANS_PER_SWEEP) {
                break; // the next sweep names the rest
            }
            if (doGet(orphan) == null) {
                named.add(orphan);
                expired.add(orphan);
            }
        }
        return expired;
    }

    private boolean heldAndExpiredAt(String id, long now) {
        ManagedSession session = doGet(id);
        if (session == null) {
            return false;
        }
        try (AutoLock ignored = session.lock()) {
            return session.isResident() && session.getRequests() == 0 && session.isExpiredAt(now);
        }
    }

    @Override
    public ManagedSession delete(String id) throws Exception {
        ManagedSession session = doGet(id);
        if (orphansToEnd.get().remove(id)) {
            if (session != null) {
                // a request loaded it after the sweep named it: ended only if it is still expired and not in use
                if (!heldAndExpiredAt(id, System.currentTimeMillis())) {
                    return null;
                }
            } else {
                if (!withinOrphanBudget()) {
                    return null; // the sweep's time for orphans is up: the next one names it again
                }
                session = loadedToEnd(id);
                if (session == null) {
                    return null;
                }
            }
        }
        RemovalCause cause = RemovalCause.INVALIDATED;
        if (session != null) {
            try (AutoLock ignored = session.lock()) {
                if (session.getSessionData().isExpiredAt(System.currentTimeMillis())) {
                    cause = RemovalCause.EXPIRED;
                }
                if (session.getSessionData() instanceof TrackedSessionData tracked) {
                    tracked.markRemoved();
                }
            }
        }
        adapter.noteRemoval(id, cause);
        if (session == null) {
            // not held here: Jetty would load it from the store (for a replicating store, a lookup across the
            // cluster) only to delete it. Jetty deletes an id in every context of the node (invalidation, expiry),
            // so that would be a lookup per other application; deleting what the store keeps of it is enough
            getSessionDataStore().delete(id);
            return null;
        }
        return super.delete(id);
    }

    /**
     * An orphan the sweep is ending, loaded ({@link SessionStoreAdapter#loadingToEnd}: only if it expired beyond
     * doubt, a takeover), so the application's listeners hear of its end. Null when the store gave nothing (its user
     * came back at another node, or another node ended it). A session that turns out live after all (a newer copy
     * arrived during the takeover) stays here as if a request had used it just now: its inactivity timer runs from
     * now, so it ends when it expires.
     */
    private ManagedSession loadedToEnd(String id) throws Exception {
        ManagedSession loaded = adapter.loadingToEnd(id, () -> getAndEnter(id, false));
        if (loaded == null) {
            return null;
        }
        try (AutoLock ignored = loaded.lock()) {
            if (loaded.getSessionData().isExpiredAt(System.currentTimeMillis())) {
                return loaded;
            }
        }
        // entered and released as a request would be (without looking anything up should it be gone meanwhile), so
        // its inactivity timer runs from now
        ManagedSession entered = adapter.loadingToEnd(id, () -> getAndEnter(id, true));
        if (entered != null) {
            release(entered);
        }
        return null;
    }

    /** Whether the current sweep may still end an orphan; the first one starts its {@link #ORPHAN_SWEEP_BUDGET}. */
    private boolean withinOrphanBudget() {
        long now = System.currentTimeMillis();
        if (orphansEndedUntil == 0) {
            orphansEndedUntil = now + ORPHAN_SWEEP_BUDGET.toMillis();
        }
        return now <= orphansEndedUntil;
    }

    /**
     * Jetty renews an id in every context of the node; one that does not hold the session has nothing to renew, and
     * must not look for it across the cluster (Jetty's own renewal would load it from the store first).
     */
    @Override
    public ManagedSession renewSessionId(String oldId, String newId, String oldExtendedId, String newExtendedId)
            throws Exception {
        if (doGet(oldId) == null) {
            return null;
        }
        return super.renewSessionId(oldId, newId, oldExtendedId, newExtendedId);
    }

    @Override
    protected void renewSessionId(ManagedSession session, String newId, String newExtendedId) throws Exception {
        if (session == null) {
            return;
        }
        try (AutoLock ignored = session.lock()) {
            // during a renewal Jetty holds the session in state CHANGING: only invalid ones are refused
            if (session.isInvalidOrInvalidating()) {
                throw new IllegalStateException("Session " + session.getId() + " is not valid");
            }
            String oldId = session.getId();
            session.getSessionData().setId(newId);
            session.setExtendedId(newExtendedId);
            session.onIdChanged();
            doPutIfAbsent(newId, session);
            doDelete(oldId);
            // another node took the session over under its old id while this request ran: what goes on here under the
            // new id is this node's own, and the old id, should the session come back here, must not be dropped then
            evictOnRelease.remove(oldId);
            if (session.getSessionData() instanceof TrackedSessionData tracked) {
                adapter.idChanged(oldId, tracked);
            }
        }
    }

    /** During the shutdown, also remembers the id: the session is dropped once the store has been given it. */
    @Override
    public ManagedSession doDelete(String id) {
        if (shuttingDown && id != null) {
            handedToStore.add(id);
        }
        return super.doDelete(id);
    }

    /**
     * Drops a session from memory without invalidating it (another node took it over); a session in
     * use is dropped when its last request releases it.
     */
    public void evict(String id) {
        ManagedSession session = doGet(id);
        if (session == null) {
            return;
        }
        try (AutoLock ignored = session.lock()) {
            if (!id.equals(session.getId())) {
                return; // a request gave it a new id meanwhile: it is this node's own under that id
            }
            if (session.getRequests() > 0) {
                evictOnRelease.add(id);
                return;
            }
            if (session.getSessionData() instanceof TrackedSessionData data) {
                data.markEvicted();
            }
            session.setResident(false);
            doDelete(id);
        }
    }

    /**
     * A request's response is about to be committed. Jetty hands the session to the store here only when
     * {@code setAttribute} made it dirty; the store hears of every other request here too, before the answer leaves
     * ({@link io.cohort.session.SessionStore#requestCompleted}): a store that copies every attribute sees values
     * changed in place, and one that waits for acknowledgements holds the answer until they came.
     */
    @Override
    public void commit(ManagedSession session) throws Exception {
        if (session == null) {
            return;
        }
        try (AutoLock ignored = session.lock()) {
            boolean handedOverByJetty = session.getSessionData().isDirty();
            super.commit(session);
            if (!handedOverByJetty && session.isValid() && !shuttingDown
                    && session.getSessionData() instanceof TrackedSessionData data) {
                adapter.requestEndedUnchanged(data);
                data.markStored();
                data.setLastSaved(System.currentTimeMillis()); // Jetty's release does not hand it over again (save period)
            }
        }
    }

    @Override
    public void release(ManagedSession session) throws Exception {
        super.release(session);
        try (AutoLock ignored = session.lock()) {
            // a request of the session ended without the store hearing of it at a commit (no answer was committed
            // through the session handler), or it changed the session after its answer was committed, and Jetty did
            // not hand it to the store at the end either (another request of the session still runs: a long poll or
            // an event stream would otherwise keep the store from hearing of any other request, and the copies from
            // moving). Every release consumes the flag, so a store at an earlier request's commit is not taken for
            // this one's.
            if (session.getSessionData() instanceof TrackedSessionData data) {
                boolean stored = data.takeStored();
                if ((!stored || data.changedSinceStored()) && session.isValid() && !shuttingDown) {
                    adapter.requestEndedUnchanged(data);
                }
            }
            // a hand-over asked for a session this version's request then invalidated or gave a new id is left to the
            // stop: the store may not have written the removal yet, and only the stop waits for that
            CompletableFuture<Void> handOver = session.getRequests() == 0 && !handOverOnRelease.isEmpty()
                    ? handOverOnRelease.remove(session.getId()) : null; // every request's end passes here
            if (handOver != null) {
                handOverNow(session).whenComplete((done, failure) -> complete(handOver, failure));
            }
        }
        String id = session.getId();
        if (id != null && evictOnRelease.remove(id)) {
            evict(id);
        }
    }

    /**
     * Hands the session with this id to the store ahead of this version's stop, for the version that replaces it (a
     * redeploy) and needs it now: at once when no request of this version uses it, else when the last one ends. The
     * session leaves this cache's memory as at a stop, so the stop does not hand it over again.
     *
     * @return completes once the store has the session (at once when this cache does not hold it; never when this
     *     version is already stopping: its stop hands every session over)
     */
    public CompletionStage<Void> handOver(String id) {
        ManagedSession session = doGet(id);
        if (session == null) {
            CompletionStage<Void> pending = handingOver.get(id); // another request asked first
            if (pending != null) {
                return pending;
            }
            return shuttingDown || handedToStore.contains(id) ? new CompletableFuture<>() : CompletableFuture.completedFuture(null);
        }
        try (AutoLock ignored = session.lock()) {
            if (session.getRequests() > 0) {
                return handOverOnRelease.computeIfAbsent(id, key -> new CompletableFuture<>());
            }
            return handOverNow(session);
        }
    }

    /** The caller holds the session's lock, and no request uses the session. */
    private CompletionStage<Void> handOverNow(ManagedSession session) {
        if (shuttingDown) {
            return new CompletableFuture<>();
        }
        String id = session.getId();
        CompletionStage<Void> pending = handingOver.get(id); // another request asked first
        if (pending != null) {
            return pending;
        }
        if (!session.isValid() || !session.isResident() || !(session.getSessionData() instanceof TrackedSessionData data)) {
            return CompletableFuture.completedFuture(null); // invalidated or gone: there is nothing to hand over
        }
        // as at a stop, the session's activation listeners hear that it will passivate before it is serialized
        _context.run(session::onSessionPassivation);
        Optional<CompletionStage<Void>> taken = adapter.handOver(data);
        if (taken.isEmpty()) { // the store takes sessions only at the stop: the session stays here until then
            _context.run(session::onSessionActivation);
            return new CompletableFuture<>();
        }
        CompletionStage<Void> stored = taken.get();
        data.markEvicted();
        handingOver.put(id, stored);
        stored.whenComplete((done, failure) -> handingOver.remove(id, stored));
        session.setResident(false);
        doDelete(id);
        return stored;
    }

    private static void complete(CompletableFuture<Void> stage, Throwable failure) {
        if (failure == null) {
            stage.complete(null);
        } else {
            stage.completeExceptionally(failure);
        }
    }

    /**
     * Whether this cache holds the session with this id (without route), dropped it during its
     * shutdown, or handed it over ahead of the shutdown ({@link #handOver}) and the store has not
     * confirmed it yet. Jetty drops each session from memory as soon as it has given it to the store, while the
     * store may still be writing it (it waits for those writes when it stops), so from the shutdown on
     * only this tells that the session's latest state may not be in the store yet.
     */
    public boolean holdsOrHandsOver(String id) {
        return sessions.containsKey(id) || handedToStore.contains(id) || handingOver.containsKey(id);
    }

    @Override
    public void shutdown() {
        adapter.beginShutdown();
        shuttingDown = true;
        for (ManagedSession session : sessions.values()) {
            try (AutoLock ignored = session.lock()) {
                // make Jetty hand every owned session to the store, changed or not
                session.getSessionData().setDirty(true);
            }
        }
        super.shutdown();
    }
}
