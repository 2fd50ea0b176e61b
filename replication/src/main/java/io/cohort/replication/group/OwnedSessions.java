package io.cohort.replication.group;

import io.cohort.session.StoredSession;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The sessions one application's transport replicates as their owner, and those whose ownership
 * passed to another member ("disowned": this node must not replicate them any more, although the
 * node may still hold them in memory). The disowned set is bounded; when it overflows it is cleared,
 * which lets a stale owner send a change the holders then ignore or resolve by version, and lets a change of
 * id on a stale copy retire the old id, ending the session at the member that took it over.
 * Thread-safe.
 */
final class OwnedSessions {

    private static final int MAX_DISOWNED = 100_000;

    private final ConcurrentMap<String, OwnedReplica> owned = new ConcurrentHashMap<>();
    private final Set<String> disowned = ConcurrentHashMap.newKeySet();

    /**
     * The replica of a session this node owns, created at its first change, which is a full copy; null if it was taken
     * over elsewhere. A delta finds the replica its earlier changes built, or none: the session left this node between
     * the engine's look and this one (a takeover elsewhere), and a replica made from the delta alone would hold only its
     * attributes, which the holders would then get as the whole session.
     *
     * @param full whether the change is a full copy
     */
    OwnedReplica replicaForChange(String sessionId, boolean full) {
        if (disowned.contains(sessionId)) {
            return null;
        }
        if (!full) {
            return owned.get(sessionId);
        }
        return owned.computeIfAbsent(sessionId,
                id -> disowned.contains(id) ? null : new OwnedReplica(null, OwnedReplica.NOT_TAKEN_OVER));
    }

    OwnedReplica get(String sessionId) {
        return owned.get(sessionId);
    }

    boolean owns(String sessionId) {
        return owned.containsKey(sessionId);
    }

    int size() {
        return owned.size();
    }

    Set<Map.Entry<String, OwnedReplica>> entries() {
        return owned.entrySet();
    }

    /** This node took the session over. */
    void adopt(String sessionId, OwnedReplica replica) {
        owned.put(sessionId, replica);
        disowned.remove(sessionId);
    }

    /** Whether another member took the session over from this node (and forgets that it did). */
    boolean forgetDisowned(String sessionId) {
        return disowned.remove(sessionId);
    }

    /** The session left this node (removed, renamed or handed over); returns what was tracked. */
    OwnedReplica remove(String sessionId) {
        disowned.remove(sessionId);
        return owned.remove(sessionId);
    }

    /** The owner's current state of a session. */
    Optional<StoredSession> shadow(String sessionId) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null) {
            return Optional.empty();
        }
        synchronized (replica) {
            return Optional.ofNullable(replica.shadow);
        }
    }

    /** Another member owns the session now (or removed it): stop replicating it from here. */
    void disown(String sessionId) {
        if (disowned.size() >= MAX_DISOWNED) {
            disowned.clear();
        }
        disowned.add(sessionId); // first: a change prepared meanwhile finds it disowned, not a replica to make anew
        owned.remove(sessionId);
    }

    /**
     * The owner's current state of a session, for {@code asker}'s lookup: remembered, so that when the asker then takes
     * the session over this node yields to it ({@link #takenOverBy}).
     */
    Optional<StoredSession> shadowForLookup(String sessionId, String asker) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null) {
            return Optional.empty();
        }
        synchronized (replica) {
            if (replica.shadow != null) {
                replica.answeredAsOwner.add(asker);
            }
            return Optional.ofNullable(replica.shadow);
        }
    }

    /**
     * {@code newOwner} announced it took the session over at {@code version}. This node yields, unless it took the
     * session over itself at the same version while the other did too (two members raced for it: neither had the
     * other's answer as owner) and wins the tie by having the lower member name. A member whose lookup this node
     * answered as owner took it over later, from this node's state: this node yields to it at any version (a session
     * only read since this node took it over is still at the version it took it over at).
     *
     * @return the state this node had as owner, if it yielded
     */
    Optional<StoredSession> takenOverBy(String self, String newOwner, String sessionId, long version) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null) {
            return Optional.empty();
        }
        boolean raced;
        synchronized (replica) {
            raced = replica.takenOverAt == version && !replica.answeredAsOwner.contains(newOwner);
        }
        if (raced && self.compareTo(newOwner) < 0) {
            return Optional.empty();
        }
        if (!owned.remove(sessionId, replica)) {
            return Optional.empty();
        }
        disown(sessionId);
        synchronized (replica) {
            return Optional.ofNullable(replica.shadow);
        }
    }

    void clear() {
        owned.clear();
        disowned.clear();
    }
}
