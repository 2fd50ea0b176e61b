package io.cohort.replication.group;

import io.cohort.session.StoredSession;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What the owner remembers about one of its sessions: the state its holders should have (the
 * "shadow", from which full copies are sent to new holders and to holders that fell behind), the
 * version each holder was last sent, and the former holders that keep their copy until the holders
 * that replace them acknowledged theirs. Not thread-safe: callers synchronize on the instance.
 */
final class OwnedReplica {

    /** A holder whose state is unknown (a change to it was abandoned or failed): it gets a full copy next. */
    static final long UNKNOWN = -1;
    /** Marks a replica this node created itself rather than took over. */
    static final long NOT_TAKEN_OVER = -1;

    /** The state the holders should have; null when sessions are not replicated continuously (onShutdown). */
    StoredSession shadow;
    /** Holder name to the version it was last sent (or {@link #UNKNOWN}). */
    final Map<String, Long> holders = new HashMap<>();
    /**
     * Members that dropped out of the placement but still hold a copy, by name, to the version they were last sent.
     * They get no further changes but do get a removal; they are told to release their copy only once every holder
     * acknowledged a full copy ({@link #confirming}), so a crash of the owner meanwhile leaves the session a copy.
     */
    final Map<String, Long> releasing = new HashMap<>();
    /** The correlation of the full copies whose acknowledgements release {@link #releasing}; 0 when none is out. */
    long confirming;
    /** The version at which this node took the session over, or {@link #NOT_TAKEN_OVER}. */
    final long takenOverAt;
    /**
     * Members whose lookup of the session this node answered from this replica, as its owner: a member that then takes
     * the session over does so after this node did, with this node's state, and this node yields to it whatever the
     * versions ({@link OwnedSessions#takenOverBy}).
     */
    final Set<String> answeredAsOwner = new HashSet<>();
    /** The last-access time last sent to the holders, in epoch milliseconds. */
    long lastAccessSent;

    OwnedReplica(StoredSession shadow, long takenOverAt) {
        this.shadow = shadow;
        this.takenOverAt = takenOverAt;
        this.lastAccessSent = shadow == null ? 0 : shadow.lastAccessed().toEpochMilli();
    }

    /**
     * The session's version as far as the owner knows it: the shadow's, or without a shadow (not replicated since it
     * came here, as under onShutdown) the version it was taken over at; {@link Long#MAX_VALUE} for a session created
     * here and never replicated (newer than anything another member can name).
     */
    long knownVersion() {
        return shadow != null ? shadow.version() : takenOverAt != NOT_TAKEN_OVER ? takenOverAt : Long.MAX_VALUE;
    }

    /** Whether {@code holder} has exactly the version before {@code version}, so a delta suffices. */
    boolean canTakeDelta(String holder, long version) {
        Long held = holders.get(holder);
        return held != null && held == version - 1;
    }
}
