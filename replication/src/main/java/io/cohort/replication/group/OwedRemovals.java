package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals.Removed;
import io.cohort.replication.wire.ReplicationMessage.SharedRemoval;
import io.cohort.session.StoredSession;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One application's removals that members out of this node's view may have missed, and their delivery when those
 * members are back: the owner side of {@code MissedRemovals} ({@link LateRemovals} is the receiving side). Every
 * invalidation and retired id is {@link #remember remembered} in a {@link RemovalLedger}, with the members present;
 * at each pass of the rebalancer ({@link #membersChanged}) the members that appeared get what they are owed, before
 * anything else that pass sends them. A removal kept for members out of the view is also given at once, as a
 * {@code SharedRemoval}, to every other member present, which keeps it for them too ({@link SharedRemovals}): should
 * this node crash or stop before they are back, those members tell them. Thread-safe.
 */
final class OwedRemovals {

    private static final Logger LOG = LoggerFactory.getLogger(OwedRemovals.class);
    /** The version a kept removal carries: every version, so it ends the session whatever happened to it elsewhere. */
    static final long SIGNED_OFF = Long.MAX_VALUE;

    private final String application;
    private final GroupContext group;
    private final ReplicationMetrics metrics;
    private final Function<List<GroupDispatch.Frame>, GroupDispatch> dispatch;
    private final RemovalLedger ledger;
    private final AtomicBoolean overflowLogged = new AtomicBoolean();

    /** @param dispatch sends frames that are not a change (counting their bytes, and failed sends to members) */
    OwedRemovals(String application, GroupContext group, ReplicationMetrics metrics,
            Function<List<GroupDispatch.Frame>, GroupDispatch> dispatch) {
        this.application = application;
        this.group = group;
        this.metrics = metrics;
        this.dispatch = dispatch;
        this.ledger = new RemovalLedger(memberNames(), group.backups().tombstoneLifetime(), Instant.now());
    }

    /**
     * The session was invalidated (or its id retired) here; kept for members out of the view until the copies of {@code
     * state} would be swept anyway (for good without a state, or for a session that does not expire). The removal
     * holds whatever version the session reached elsewhere meanwhile ({@link #SIGNED_OFF}): a sign-off, or the old id
     * that {@code changeSessionId} retired at a sign-on, must not live on at a member that went on with the session
     * on the other side of a partition. Forgetting an older removal owed to a member out
     * of the view to make room is counted in {@code failures} and logged once. A removal kept for members out of the
     * view is also for every other member present, as a {@code SharedRemoval} ({@link Remembered#share}); nothing is
     * sent here: the caller's dispatch carries it, so preparing a removal never waits on the network.
     */
    Remembered remember(String sessionId, StoredSession state) {
        Instant keepUntil = state == null || state.maxInactiveMillis() <= 0 ? Instant.MAX
                : state.lastAccessed().plusMillis(state.maxInactiveMillis() * BackupStore.ORPHAN_GRACE_FACTOR);
        Removed removal = new Removed(sessionId, SIGNED_OFF);
        RemovalLedger.Recorded recorded = ledger.remember(removal, Instant.now(), keepUntil, memberNames());
        List<GroupDispatch.Frame> share = recorded.keptForAbsent() ? share(removal, keepUntil) : List.of();
        if (recorded.forgotten() > 0) {
            metrics.failed();
            if (overflowLogged.compareAndSet(false, true)) {
                LOG.warn("{}: {} invalidations are remembered for members out of this node's view; the oldest are "
                        + "forgotten, and a member that held a copy of one and comes back will not hear of it (counted "
                        + "in cohort.replication.failures; logged once)", application, RemovalLedger.MAX_REMOVALS);
            }
        }
        return new Remembered(recorded.tellNow(), share);
    }

    /**
     * What the removal's dispatch must carry besides the removal to its holders.
     *
     * @param tellNow members to send the removal to at once, beside its holders (see {@link RemovalLedger#remember})
     * @param share   the {@code SharedRemoval} frames for the other members present, or none
     */
    record Remembered(Set<String> tellNow, List<GroupDispatch.Frame> share) {
    }

    /** The {@code share} frames of a removal, sent as frames that are not a change (counted, failed sends too). */
    Dispatch shareDispatch(List<GroupDispatch.Frame> share) {
        return dispatch.apply(share);
    }

    /** The members changed: those that appeared (back from a partition, or new) get the removals they may have missed. */
    void membersChanged() {
        Map<String, List<Removed>> owed = ledger.membersAre(memberNames(), Instant.now());
        if (owed.isEmpty()) {
            return;
        }
        List<GroupDispatch.Frame> frames = LateRemovals.framesFor(group.messenger(), application, owed);
        dispatch.apply(frames).send();
        owed.forEach((member, missed) -> LOG.info("{}: told {} about {} sessions removed while it was out of this "
                + "node's view", application, member, missed.size()));
    }

    /**
     * The frames that give the removal to every other member present, which keeps it for the members out of the view:
     * one multicast where the transport prefers it, else one frame to each.
     */
    private List<GroupDispatch.Frame> share(Removed removal, Instant keepUntil) {
        List<String> others = group.membership().others().stream().map(Member::name).toList();
        if (others.isEmpty()) {
            return List.of();
        }
        byte[] frame = group.messenger().encode(new SharedRemoval(application, removal, keepUntil));
        return group.messenger().multicasts(others.size(), others.size())
                ? List.of(new GroupDispatch.Frame(null, frame))
                : others.stream().map(other -> new GroupDispatch.Frame(other, frame)).toList();
    }

    /** Forgets removals that no member out of the view can need any more. */
    void forgetOld(Instant now) {
        ledger.forgetOld(now);
    }

    private Set<String> memberNames() {
        Set<String> names = new HashSet<>();
        group.membership().members().forEach(m -> names.add(m.name()));
        return names;
    }
}
