package io.cohort.session;

import java.util.Optional;

/**
 * Keeps the state of one web application's sessions beyond the memory of the node that owns them.
 *
 * <h2>Who is authoritative</h2>
 * The node that holds a session in its session cache (its <em>owner</em>, or primary) is
 * authoritative for it. A store only ever holds copies: it must never resurrect a session the owner
 * removed, and must never prefer a copy with a lower {@link LiveSession#version() version} over one
 * with a higher version. Expiry is decided by the owner, which reports it through {@link #removed}.
 *
 * <h2>When the node calls</h2>
 * The node reports every moment at which a replication policy might want to act and lets the store
 * decide what to do: {@link #attributeChanged} on each {@code setAttribute}/{@code removeAttribute},
 * {@link #requestCompleted} when a request that touched the session is about to commit its response,
 * {@link #shuttingDown} for every owned session when the application stops gracefully (node stop,
 * undeploy, redeploy). A store that has nothing to do at a given moment returns at once.
 *
 * <h2>Threading</h2>
 * Calls that take a {@link LiveSession} are made while the node holds that session's lock, in the
 * thread that caused the event (a request thread, or the stopping thread). Concurrent calls for
 * <em>different</em> sessions happen all the time; calls for the same session never overlap. The
 * {@code LiveSession} is valid only for the duration of the call: a store that works asynchronously
 * must snapshot what it needs (e.g. {@link LiveSession#serializedAttribute}) before returning. A
 * synchronous store blocks the request for as long as it waits, so it must bound its waits.
 *
 * <h2>Failure</h2>
 * Event methods must not throw: a store that cannot deliver a change logs it, counts it and
 * returns, and the request carries on with the session intact at its owner (the copy elsewhere is
 * then stale until the next successful change; versions let holders detect the gap). {@link #load}
 * returns empty when no copy can be found in time, never an exception for an unknown id, so the
 * node starts a fresh session instead of failing the request.
 */
public interface SessionStore {

    /** Starts the store for one application; called once, before any other method. */
    void start(SessionStoreContext context) throws Exception;

    /**
     * Stops the store. Called after the last {@link #shuttingDown} of a graceful stop, or without
     * one when the application is stopped abruptly. Must return within a bounded time.
     */
    void stop();

    /** A session was created at this node (it is new, its first request is still running). */
    void created(LiveSession session);

    /** An attribute was set, replaced or removed ({@code name} is no longer present if removed). */
    void attributeChanged(LiveSession session, String name);

    /**
     * A request that used the session is about to commit its response, whether or not it changed the session (a
     * value may have changed in place, without {@code setAttribute}; its last access moved). Called once more when
     * the request ends if it changed the session after its response was committed, and at the end of a request whose
     * response was not committed through the session handler.
     */
    void requestCompleted(LiveSession session);

    /** The application is stopping gracefully; the session is about to leave this node's memory. */
    void shuttingDown(LiveSession session);

    /**
     * The application is being replaced on this node (a redeploy) and the new version needs this session before
     * the old version stops. A store that can take it now does so as at a graceful stop ({@link #shuttingDown}): the
     * session then leaves the old version's memory, and the old version's stop does not hand it over again. Called
     * under the session's lock, with no request of the old version using it.
     *
     * @return completes once a {@link #load} of the new version finds this state (exceptionally, or never, when the
     *     hand-over was not acknowledged: the caller bounds its wait, as a stop does); empty, the default, when this
     *     store takes sessions only at the stop (it did nothing; the new version's request waits for the stop)
     */
    default Optional<java.util.concurrent.CompletionStage<Void>> handOver(LiveSession session) {
        return Optional.empty();
    }

    /**
     * Whether this node's in-memory copy of a session has gone stale: another node took the session over since, or it
     * ended elsewhere, and this node did not hear of it (a store over a shared database hears only when it next writes
     * or checks). Asked on the request thread before a request uses a session the node holds in memory; a store must
     * answer at once from memory when it can, and bound any I/O (a store that cannot tell in time answers false: the
     * copy stays in use). When true, the store has already evicted the copy through
     * {@link SessionCacheControl#evict}, and the node looks the session up as on a cache miss ({@link #load}). The
     * default, false, suits a store that hears of every takeover (its evictions reach the node by themselves).
     */
    default boolean copyStale(String id) {
        return false;
    }

    /**
     * The session got a new id (e.g. after login). The store forgets {@code oldId} as this node's session: a replicating
     * store retires it across the cluster, unless another node took the session over under it while the request still
     * ran here and this node has heard of it; the session then lives on there under the old id, and the one here goes
     * on under the new id (a store that cannot keep it, such as the database store, which hears of the takeover at its
     * write, treats the new id as lost).
     */
    void idChanged(String oldId, LiveSession session);

    /** The owner invalidated the session or it expired: every copy must go. */
    void removed(String id, RemovalCause cause);

    /**
     * Finds a session this node does not hold, e.g. because its owner died or restarted. A store that
     * returns a session hands ownership to the calling node: it must no longer return the same copy
     * to another node as current. The copy's last access may lag the owner's, but by no more than a
     * quarter of the session's inactive interval: a replicating store refreshes it at least that often
     * while the session is in use ({@link StoredSession#expiredBeyondDoubtAt}).
     *
     * @param id the session id without route suffix
     * @return the newest copy that can be found within the store's lookup bound, or empty
     */
    Optional<StoredSession> load(String id);

    /** Whether any copy of the session with this id exists (used to avoid reusing ids). */
    boolean exists(String id);

    /**
     * Sessions no live member owns whose end this node answers for, that have expired beyond doubt at {@code now}
     * ({@link StoredSession#expiredBeyondDoubtAt}): those of a crashed or departed owner whose users never came back.
     * The node ends each as its owner would have: it loads it with {@link #loadToEnd} and invalidates it, so the
     * application's session listeners hear of the end; then {@link #removed} follows as for any expiry. The
     * application should hear of each end once: a store names an id to one node only, or, if it names it to several,
     * its {@link #loadToEnd} gives the session to one of them only (to the others it answers empty); a store states
     * where it cannot. Where no node of the application answers for such sessions, the store drops them on its own
     * schedule.
     *
     * <p>Called on the node's session sweeper thread about once a minute per application, never on a request thread;
     * bounded in time (a store may query its database), and a store that cannot answer names none. The default, none,
     * suits a store whose sessions can only expire at their owner.
     */
    default java.util.Set<String> expiredOrphans(java.time.Instant now) {
        return java.util.Set.of();
    }

    /**
     * {@link #load}, for a session {@link #expiredOrphans} named, to end it: hands the session to this node only if
     * the newest copy found expired beyond doubt ({@link StoredSession#expiredBeyondDoubtAt}); otherwise answers empty
     * and takes nothing over (its user came back at another node meanwhile, or another node ended it first), so a
     * live session does not move for a sweep. A store that can only tell after taking the session over (a newer copy
     * arrived meanwhile) may return a live one: the node then keeps it, its interval restarted. Same bounds as
     * {@link #load}. The default, empty, goes with the default {@link #expiredOrphans}.
     */
    default Optional<StoredSession> loadToEnd(String id) {
        return Optional.empty();
    }

    /**
     * Routes of the members that hold a copy of this node's session, in the order a balancer should
     * try them when this node is gone. The node passes them to balancers in the {@code COHORT_BACKUP}
     * cookie. Empty when the store keeps no copies on other members. Called on request threads, not
     * under the session's lock: must be cheap and must not block.
     */
    default java.util.List<String> copyHolders(String id) {
        return java.util.List.of();
    }
}
