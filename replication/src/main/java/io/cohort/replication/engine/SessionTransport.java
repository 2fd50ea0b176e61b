package io.cohort.replication.engine;

import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The pluggable part of replication for one application: it carries the changes the
 * {@link ReplicatingSessionStore engine} decided to send to wherever copies live (other members of
 * a group, a database), and finds copies again. The engine owns the policy (when to send, what a
 * change contains, whether the request waits); a transport owns the where (placement, write-quota,
 * backups) and the how (encoding, acknowledgements, lookups).
 *
 * <h2>Threading</h2>
 * {@link #prepare}, {@link #prepareRemoval} and {@link #prepareTouch} run in the thread of the
 * session event, while the node holds the session's lock; calls for one session never overlap, and
 * the order of the returned {@link Dispatch}es is the order their changes must reach each target.
 * Preparing must not block on the network. Everything else may be called from any thread.
 *
 * <h2>Consistency</h2>
 * A change that is prepared and then abandoned leaves its targets behind: the transport must
 * detect that and send a full copy with the next change. A transport never lets a copy with a lower
 * version replace one with a higher version.
 */
public interface SessionTransport {

    /**
     * Whether the transport already replicated this session (or took it over), so that copies of some
     * version exist elsewhere. The first change of a session the transport does not track is sent
     * in full.
     */
    boolean tracks(String sessionId);

    /**
     * Records a change of a session this node owns and prepares its messages.
     *
     * @param acknowledged whether {@link Dispatch#applied()} should wait for the targets to apply it
     * @return {@link Dispatch#NONE} when there is nowhere to send it (a single member, or the
     *     session was taken over by another member meanwhile)
     */
    Dispatch prepare(SessionChange change, boolean acknowledged);

    /**
     * The session this node owns gets a new id: called before the old id's {@link #prepareRemoval} and before any
     * change under the new id. A transport whose copies are keyed by the id on shared storage moves them to the new id
     * under its ownership check, so a node whose copy went stale cannot publish it under the new id; by default
     * nothing happens (the old id's copies are removed and the session is copied in full under the new id).
     *
     * @return whether the old id is retired, its copies then removed through {@link #prepareRemoval}. A transport may
     *     return false when it knows the session under the old id is no longer this node's (another member took it over
     *     while a request here still ran on the stale copy, and went on with it there): it then lives on there under the
     *     old id, and this node's copy goes on under the new id as a session of this node's own. One whose removal only
     *     removes what is still this node's may return true then as well
     */
    default boolean idChanging(String oldId, String newId) {
        return true;
    }

    /**
     * The owner removed the session (or retired its id): every copy must go, and must not come back.
     * Also forgets what the transport tracked for the id. Under synchronous delivery the returned
     * {@link Dispatch#applied()} of an invalidation waits, as a change's does, until every target removed its copy, so a
     * sign-off answered to the user cannot come back through a copy a crash left behind.
     */
    Dispatch prepareRemoval(String sessionId, RemovalCause cause);

    /**
     * The session was used without changes, or under onShutdown, which sends no changes before the stop; the
     * transport may refresh the copies' last-access time (so they are not swept as orphans or expired) and
     * decides how often, and under which trigger, that is worth a message.
     */
    Dispatch prepareTouch(String sessionId, long version, Instant lastAccessed, long maxInactiveMillis);

    /**
     * Whether a copy this node placed of the session is known not to hold {@code version}: a change on its way to it
     * was dropped or failed. A graceful stop then sends the session in full, even if nothing changed since; no
     * later request would repair that copy. The default: copies are never behind (the transport keeps no copies of
     * its own placing, or repairs them itself).
     */
    default boolean copiesBehind(String sessionId, long version) {
        return false;
    }

    /**
     * The session leaves this node's memory (graceful stop handed it over): forget it, keep the
     * copies elsewhere. When the stop is a redeploy's, a transport may keep the session's state on this
     * node for the newer version of the application, whose {@link #takeOver} then finds it here.
     */
    void forget(String sessionId);

    /**
     * Finds a session this node does not own and makes this node its owner: the newest copy that can
     * be found within {@code wait}, or empty. Never throws for an unknown id.
     */
    Optional<StoredSession> takeOver(String sessionId, Duration wait);

    /**
     * {@link #takeOver}, for a session {@link #expiredOrphans} named, to end it: only a session whose newest copy
     * found within {@code wait} expired beyond doubt; otherwise empty, and nothing is taken over (its user came back
     * meanwhile, or another node ended it first). The default, empty, goes with the default {@link #expiredOrphans}.
     */
    default Optional<StoredSession> takeOverToEnd(String sessionId, Duration wait) {
        return Optional.empty();
    }

    /**
     * Routes of the members holding copies of a session this node owns, best first; empty when
     * unknown. Called on request threads without the session's lock: cheap, never blocking.
     */
    default List<String> copyHolders(String sessionId) {
        return List.of();
    }

    /**
     * How asynchronous delivery may group this transport's dispatches; {@link Batching#NONE} (the
     * default) sends them one by one.
     */
    default Batching batching() {
        return Batching.NONE;
    }

    /** Whether this node holds a copy of the session (without asking anyone). */
    boolean holdsCopy(String sessionId);

    /**
     * The sessions no live member owns whose end this node answers for, expired beyond doubt at {@code now}
     * ({@link io.cohort.session.SessionStore#expiredOrphans}, whose contract applies: each end once, bounded in time).
     * The default, none, is for transports whose copies no node answers for (their expiry is swept where they are
     * stored).
     */
    default Set<String> expiredOrphans(Instant now) {
        return Set.of();
    }

    /** Stops serving the application; bounded in time. Copies held for others stay with the node. */
    void close();

    /**
     * Whether this node's in-memory copy of a session it owns has gone stale: another node took the session over, or
     * it ended elsewhere, without this node having heard. Asked on a request thread before a request uses the copy, so
     * it must be cheap in the common case and bounded otherwise. When true, the transport has already disowned the
     * session and had the node evict the copy ({@link io.cohort.session.SessionCacheControl#evict}). The default,
     * false, is for transports that hear of every takeover.
     */
    default boolean copyStale(String sessionId) {
        return false;
    }
}
