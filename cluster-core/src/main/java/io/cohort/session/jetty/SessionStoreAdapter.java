package io.cohort.session.jetty;

import io.cohort.metrics.OncePerKind;
import io.cohort.session.LiveSession;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.RejectedValueException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.session.AbstractSessionDataStore;
import org.eclipse.jetty.session.SessionData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adapts a {@link SessionStore} to Jetty's {@code SessionDataStore}: Jetty's session cache keeps
 * the live sessions, and this adapter turns its calls into store events and loads.
 *
 * <ul>
 *   <li>{@code store()} at response commit (the cache flushes on commit) becomes
 *       {@link SessionStore#requestCompleted}, or {@link SessionStore#shuttingDown} while the
 *       cache shuts down; a request Jetty does not hand over reaches {@link SessionStore#requestCompleted}
 *       through the cache ({@link #requestEndedUnchanged});</li>
 *   <li>{@code load()} on a cache miss becomes {@link SessionStore#load}, with values deserialized
 *       through the application's filter (a rejected value is dropped, counted and logged; the rest
 *       of the session survives); a copy that expired beyond doubt is loaded already expired, so Jetty ends it
 *       through the application (its listeners hear of it) and the request gets a new session;</li>
 *   <li>Jetty's sweep of expired sessions also ends the {@link SessionStore#expiredOrphans orphans} this node
 *       answers for ({@link CohortSessionCache#checkExpiration});</li>
 *   <li>{@code delete()} becomes {@link SessionStore#removed}.</li>
 * </ul>
 * Attribute changes reach the store from {@link TrackedSessionData}, and id changes from
 * {@link CohortSessionCache}.
 */
public final class SessionStoreAdapter extends AbstractSessionDataStore implements SessionEvents {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStoreAdapter.class);

    private final StoreBinding.Binder binder;
    private final Map<String, RemovalCause> pendingRemovals = new ConcurrentHashMap<>();
    /**
     * The orphan this thread's cache lookup is loading to end ({@link #loadingToEnd}): loaded with {@link
     * SessionStore#loadToEnd}. Per thread, since the cache runs a lookup in the caller's thread: a request's lookup of
     * the same id meanwhile is a plain load.
     */
    private final ThreadLocal<String> endingOrphan = new ThreadLocal<>();
    /** Attribute names come from whoever wrote the copy: at most this many are logged, the rest only counted. */
    private final OncePerKind loggedRejections = new OncePerKind(100);
    private volatile SessionStore store;
    private volatile SessionStoreContext storeContext;
    private volatile boolean shuttingDown;

    public SessionStoreAdapter(StoreBinding.Binder binder) {
        this.binder = binder;
    }

    /** The store this application is bound to while started. */
    public SessionStore store() {
        return store;
    }

    @Override
    protected void doStart() throws Exception {
        StoreBinding binding = binder.bind();
        binding.store().start(binding.context());
        this.storeContext = binding.context();
        this.store = binding.store();
        this.shuttingDown = false;
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        try {
            super.doStop();
        } finally {
            SessionStore bound = store;
            if (bound != null) {
                bound.stop();
            }
        }
    }

    @Override
    public boolean isPassivating() {
        return true;
    }

    @Override
    public SessionData newSessionData(String id, long created, long accessed, long lastAccessed, long maxInactiveMs) {
        return new TrackedSessionData(this, storeContext.codec(), storeContext.distributable(), id,
                _context.getCanonicalContextPath(), _context.getVhost(), created, accessed, lastAccessed, maxInactiveMs);
    }

    @Override
    public void attributeChanged(LiveSession session, String name) {
        TrackedSessionData data = (TrackedSessionData) session;
        announce(data);
        store.attributeChanged(session, name);
    }

    @Override
    public void doStore(String id, SessionData data, long lastSaveTime) {
        TrackedSessionData tracked = (TrackedSessionData) data;
        tracked.markStored();
        announce(tracked);
        if (shuttingDown) {
            store.shuttingDown(tracked);
        } else {
            store.requestCompleted(tracked);
        }
    }

    /**
     * A request that Jetty did not hand to the store is committing its response (it changed nothing through
     * {@code setAttribute}), or it ended with changes made after its response was committed: the store still hears of
     * it, since it decides what is worth a message (every attribute, under allAttributes; a touch, since a copy must
     * not lag more than a quarter of the inactive interval, which a short interval needs more often than Jetty's save
     * period). The caller holds the session's lock.
     */
    void requestEndedUnchanged(TrackedSessionData data) {
        if (!shuttingDown && store != null) {
            announce(data);
            store.requestCompleted(data);
        }
    }

    private void announce(TrackedSessionData data) {
        if (!data.announced()) {
            data.markAnnounced();
            store.created(data);
        }
    }

    /**
     * Loads a session this node does not hold from the store, which hands its ownership to this node.
     *
     * <p>A copy that had expired whatever its owner saw last ({@link StoredSession#expiredBeyondDoubtAt}:
     * its last access plus its maximum inactive interval, plus the quarter of it by which a copy's last
     * access may lag the owner's, is past) is returned already expired: this node, its owner now, ends it as its
     * first owner would have. Jetty invalidates a session it finds expired (on a request, the request gets a new
     * session; on the sweep, {@link CohortSessionCache#delete}), its listeners hear of the end and the cache reports
     * it to the store as {@link RemovalCause#EXPIRED} (every other copy goes). Backups never resurrect a session.
     *
     * <p>A live copy keeps its own access times: the returned data was last accessed at the copy's last
     * access and expires at that time plus the inactive interval (or, for a copy past its interval by
     * less than its possible lag, now plus the interval), so Jetty's access at the start of the request
     * makes that time the session's {@code getLastAccessedTime()} and restarts the interval.
     */
    @Override
    public SessionData doLoad(String id) {
        Optional<StoredSession> found = id.equals(endingOrphan.get()) ? store.loadToEnd(id) : store.load(id);
        if (found.isEmpty()) {
            return null;
        }
        StoredSession copy = found.get();
        long now = System.currentTimeMillis();
        boolean expired = copy.expiredBeyondDoubtAt(Instant.ofEpochMilli(now));
        if (expired) {
            LOG.debug("Session {} of {}: the stored copy expired at {}; loaded to be ended", id,
                    storeContext.application(), copy.lastAccessed().plusMillis(copy.maxInactiveMillis()));
        }
        long lastAccessed = copy.lastAccessed().toEpochMilli();
        TrackedSessionData data = new TrackedSessionData(this, storeContext.codec(), storeContext.distributable(),
                id, _context.getCanonicalContextPath(), _context.getVhost(), copy.created().toEpochMilli(),
                lastAccessed, lastAccessed, copy.maxInactiveMillis());
        data.putAllAttributes(deserialize(copy));
        data.restoreVersion(copy.version());
        data.setLastSaved(now);
        // past its interval by less than the copy's possible lag: the owner may have seen a later access, so the
        // session is given the benefit of the doubt and its interval runs from now
        data.calcAndSetExpiry(copy.isExpiredAt(Instant.ofEpochMilli(now)) && !expired ? now : lastAccessed);
        return data;
    }

    /**
     * Runs {@code load} (the cache's lookup of an orphan it is ending, in this thread) with the store's
     * {@link SessionStore#loadToEnd} in place of {@link SessionStore#load} for that id.
     */
    <T> T loadingToEnd(String id, Callable<T> load) throws Exception {
        endingOrphan.set(id);
        try {
            return load.call();
        } finally {
            endingOrphan.remove();
        }
    }

    /**
     * The sessions no live member owns that this node is to end ({@link SessionStore#expiredOrphans}); none while the
     * store is not started. A store that fails is logged and named nothing: the sweep tries again next time.
     */
    Set<String> expiredOrphans(long now) {
        SessionStore bound = store;
        if (bound == null || shuttingDown) {
            return Set.of();
        }
        try {
            return bound.expiredOrphans(Instant.ofEpochMilli(now));
        } catch (RuntimeException e) {
            LOG.warn("{}: could not list the expired sessions of departed owners ({}); trying again at the next sweep",
                    storeContext.application(), e.toString());
            return Set.of();
        }
    }

    private Map<String, Object> deserialize(StoredSession copy) {
        Map<String, Object> values = new java.util.HashMap<>();
        for (var attribute : copy.attributes().entrySet()) {
            try {
                values.put(attribute.getKey(), storeContext.codec().deserialize(attribute.getKey(), attribute.getValue()));
            } catch (RejectedValueException e) {
                storeContext.meters().counter("cohort.session.values.rejected", "app", storeContext.application()).increment();
                if (loggedRejections.first(attribute.getKey())) {
                    LOG.warn("Session {} of {}: {} (dropped; further rejections of this attribute are only counted)",
                            copy.id(), storeContext.application(), e.getMessage());
                }
            }
        }
        return values;
    }

    /** Called by the cache just before it deletes a session, so {@link #doDelete} knows why. */
    void noteRemoval(String id, RemovalCause cause) {
        pendingRemovals.put(id, cause);
    }

    @Override
    public boolean delete(String id) throws Exception {
        return doDelete(id);
    }

    private boolean doDelete(String id) {
        RemovalCause cause = pendingRemovals.remove(id);
        store.removed(id, cause == null ? RemovalCause.INVALIDATED : cause);
        return true;
    }

    void idChanged(String oldId, TrackedSessionData data) {
        store.idChanged(oldId, data);
    }

    /**
     * Hands one session to the store ahead of the application's stop ({@link SessionStore#handOver}); the caller
     * holds the session's lock.
     */
    Optional<java.util.concurrent.CompletionStage<Void>> handOver(TrackedSessionData data) {
        SessionStore bound = store;
        if (bound == null) {
            return Optional.empty();
        }
        announce(data);
        return bound.handOver(data);
    }

    /** Whether the store found this node's in-memory copy stale ({@link SessionStore#copyStale}); it evicted it then. */
    boolean copyStale(String id) {
        SessionStore bound = store;
        return bound != null && !shuttingDown && bound.copyStale(id);
    }

    void beginShutdown() {
        shuttingDown = true;
    }

    @Override
    public boolean doExists(String id) {
        return store.exists(id);
    }

    @Override
    public Set<String> doCheckExpired(Set<String> candidates, long time) {
        // Candidates come from this node's own inactivity timers: the owner decides expiry.
        return candidates;
    }

    @Override
    public Set<String> doGetExpired(long before) {
        return Set.of();
    }

    @Override
    public void doCleanOrphans(long time) {
        // copies held elsewhere are the store's business; nothing to sweep here
    }

    @Override
    public String toString() {
        return "SessionStoreAdapter[" + store + "]";
    }
}
