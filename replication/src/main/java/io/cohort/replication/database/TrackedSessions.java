package io.cohort.replication.database;

import io.cohort.replication.database.DatabaseWrite.Removal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What one application's database transport remembers about sessions, all in memory of this node:
 * <ul>
 *   <li><em>tracked</em>: sessions this node owns and has written (or is writing, or loaded), with
 *       whether a row of ours is committed and whether the next change must be a full copy;</li>
 *   <li><em>disowned</em>: sessions another node took over (a write conflicted); this node must not
 *       write or delete them any more. Bounded: on overflow the set is cleared, which at worst lets
 *       a stale write reach the database, where the owner check refuses it again;</li>
 *   <li><em>tombstones</em>: sessions removed here during the last minute, so this node neither
 *       reports nor loads them while the deletion may still be queued;</li>
 *   <li><em>pending removals</em>: sessions removed here whose deletion failed or was dropped from a full
 *       queue; they count as tombstoned until a retry deleted their rows.</li>
 * </ul>
 * Thread-safe.
 */
final class TrackedSessions {

    private static final int MAX_DISOWNED = 100_000;
    private static final int MAX_TOMBSTONES = 100_000;
    private static final long TOMBSTONE_NANOS = 60_000_000_000L;

    /** The state of one tracked session; fields are written by request and writer threads. */
    static final class State {
        /** A row written (or claimed) by this node is committed. */
        volatile boolean committed;
        /** A change may be missing in the database: the next one is sent in full. */
        volatile boolean needsFull;
        /**
         * {@link System#nanoTime()} when the database last confirmed the row is this node's: a write or touch under the
         * owner check, the claim of a load, or an ownership check ({@link DatabaseSessionTransport#copyStale}).
         */
        volatile long confirmedNanos = System.nanoTime();
        /** The last access time in the database as this node wrote it (epoch ms). */
        volatile long lastAccessWritten;
        /** The inactive interval in the database as this node wrote (or loaded) it (ms; 0 or less: never expires). */
        volatile long maxInactiveWritten;
        /**
         * The ids under which this node's committed rows may still be, newest first, when the session got new ids since
         * they were written; empty once a write under the current id moved them.
         */
        volatile List<String> renamedFrom = List.of();
    }

    private final ConcurrentMap<String, State> states = new ConcurrentHashMap<>();
    private final Set<String> disowned = ConcurrentHashMap.newKeySet();
    private final ConcurrentMap<String, Long> tombstones = new ConcurrentHashMap<>();
    /** Sessions whose deletion is to be retried, with whose rows it deletes. */
    private final ConcurrentMap<String, Removal.Reach> pendingRemovals = new ConcurrentHashMap<>();
    /**
     * Ids retired by a change of id whose rows are deleted rather than moved (onShutdown), while their deletion has not
     * yet told whether the rows were still this node's: old id to new id.
     */
    private final ConcurrentMap<String, String> retiredFor = new ConcurrentHashMap<>();

    /** The state of a session about to be written, created at its first change; null if disowned. */
    State forChange(String id) {
        if (disowned.contains(id)) {
            return null;
        }
        return states.computeIfAbsent(id, key -> new State());
    }

    State get(String id) {
        return states.get(id);
    }

    /** Tracked, and its database row is believed complete up to the last change. */
    boolean tracks(String id) {
        State state = states.get(id);
        return state != null && !state.needsFull;
    }

    /** This node loaded (claimed) the session. */
    void adopt(String id, long lastAccessed, long maxInactiveMillis) {
        State state = new State();
        state.committed = true;
        state.lastAccessWritten = lastAccessed;
        state.maxInactiveWritten = maxInactiveMillis;
        states.put(id, state);
        disowned.remove(id);
        tombstones.remove(id);
    }

    /** A change may be missing in the database. */
    void needsFull(String id) {
        State state = states.get(id);
        if (state != null) {
            state.needsFull = true;
        }
    }

    /** Another node owns the session now. */
    void disown(String id) {
        states.remove(id);
        if (disowned.size() >= MAX_DISOWNED) {
            disowned.clear();
        }
        disowned.add(id);
    }

    /**
     * The session got a new id at this node. Its state moves to the new id; committed rows under the old id are moved
     * by the next write ({@link State#renamedFrom}). A second new id before that write landed adds the one before it:
     * the rows are under one of them, depending on whether the write under the first new id got through.
     *
     * @return false if another node took the session over under the old id: it is disowned under the new one too
     */
    boolean rename(String oldId, String newId) {
        if (disowned.remove(oldId)) {
            disown(newId);
            return false;
        }
        State state = states.remove(oldId);
        if (state != null) {
            if (state.committed) {
                List<String> former = new ArrayList<>(List.of(oldId));
                former.addAll(state.renamedFrom);
                state.renamedFrom = List.copyOf(former);
            }
            states.put(newId, state);
        }
        return true;
    }

    /**
     * The session this node has written under {@code oldId} goes on as {@code newId}, and the old id's rows are to be
     * deleted: if the deletion finds them another node's, the session under its new id is stale ({@link #retired}).
     */
    void retiring(String oldId, String newId) {
        if (retiredFor.size() >= MAX_DISOWNED) {
            retiredFor.clear();
        }
        retiredFor.put(oldId, newId);
    }

    /** Whether {@code oldId} was retired by a change of id whose deletion has not ended yet. */
    boolean isRetiring(String oldId) {
        return retiredFor.containsKey(oldId);
    }

    /** The new id of a session whose old id's deletion just ended, if it was retired by a change of id; forgets it. */
    String retired(String oldId) {
        return retiredFor.remove(oldId);
    }

    /** Whether another node took the session over (a write conflicted). */
    boolean isDisowned(String id) {
        return disowned.contains(id);
    }

    /** Whether the session was disowned (and forgets that it was). */
    boolean forgetDisowned(String id) {
        return disowned.remove(id);
    }

    State remove(String id) {
        return states.remove(id);
    }

    void tombstone(String id) {
        long now = System.nanoTime();
        if (tombstones.size() >= MAX_TOMBSTONES) {
            for (Iterator<Map.Entry<String, Long>> it = tombstones.entrySet().iterator(); it.hasNext(); ) {
                if (now - it.next().getValue() > TOMBSTONE_NANOS) {
                    it.remove();
                }
            }
            if (tombstones.size() >= MAX_TOMBSTONES) {
                tombstones.clear();
            }
        }
        tombstones.put(id, now);
    }

    /**
     * The deletion of a removed session did not reach the database: it is retried until it does, with the wider of
     * its reaches if it was pending already (a sign-off stays one).
     */
    void removalPending(String id, Removal.Reach reach) {
        pendingRemovals.merge(id, reach, (before, now) -> before == Removal.Reach.ANY_OWNER ? before : now);
    }

    /** The deletion of a removed session reached the database (or found nothing of this node's to delete). */
    void removalDone(String id) {
        pendingRemovals.remove(id);
    }

    /**
     * The deletion found no row of this node's: the session lives on at the node that took it over (or is gone
     * already), so this node must not hide it from a request it gets for it.
     */
    void removedElsewhereOrNowhere(String id) {
        pendingRemovals.remove(id);
        tombstones.remove(id);
    }

    /** The sessions whose deletion is still to be retried, with whose rows each deletes. */
    Map<String, Removal.Reach> pendingRemovals() {
        return Map.copyOf(pendingRemovals);
    }

    /** Whether the deletion of {@code id} is still to be retried. */
    boolean isRemovalPending(String id) {
        return pendingRemovals.containsKey(id);
    }

    boolean tombstoned(String id) {
        if (pendingRemovals.containsKey(id)) {
            return true;
        }
        Long at = tombstones.get(id);
        if (at == null) {
            return false;
        }
        if (System.nanoTime() - at > TOMBSTONE_NANOS) {
            tombstones.remove(id, at);
            return false;
        }
        return true;
    }

    int size() {
        return states.size();
    }

    void clear() {
        states.clear();
        disowned.clear();
        tombstones.clear();
        pendingRemovals.clear();
    }
}
