package io.cohort.replication.group;

import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals.Removed;
import io.cohort.replication.wire.ReplicationMessage.SharedRemoval;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removals other members made while members were out of their view, kept here for those members ({@link
 * SharedRemoval}): a remover tells a member that comes back itself ({@link OwedRemovals}), but if it crashed or stopped
 * before the partition healed, nobody else would, and the member would keep its copy of a signed-off session as
 * custodian and serve it again. So every member that was present keeps the removal in a {@link RemovalLedger} per
 * application, for the members its own view lacks (whether or not it deploys the application: a member that does not
 * may still have held a copy, and the one that comes back may be such a member), and at each rebalance pass sends
 * each member that appeared what it is owed, as {@code MissedRemovals}, before anything else that pass sends.
 *
 * <p>Each member present does so, the remover too while it lives, so a member that comes back hears of a removal from
 * several; removals are idempotent, and {@link LateRemovals} passes one on only when it dropped something it placed,
 * so that ends. The receivers keep only what a remover shares, which it does only while members are out of its view;
 * each ledger holds at most {@link RemovalLedger#MAX_REMOVALS}, and a ledger left empty is dropped at the sweep. The
 * applications are those {@link KnownApplications} admits. Thread-safe.
 */
final class SharedRemovals {

    private static final Logger LOG = LoggerFactory.getLogger(SharedRemovals.class);

    private final GroupContext group;
    private final MeterRegistry meters;
    private final PlainFrames plainFrames;
    private final Map<String, RemovalLedger> ledgers = new ConcurrentHashMap<>();
    private final AtomicBoolean overflowLogged = new AtomicBoolean();

    SharedRemovals(GroupContext group, MeterRegistry meters, PlainFrames plainFrames) {
        this.group = group;
        this.meters = meters;
        this.plainFrames = plainFrames;
    }

    /**
     * {@code sender} removed a session while members were out of its view: keep it for those this view lacks, and tell
     * at once those that appeared in this node's view while the share was on its way (the pass that tells members that
     * appear has run for them).
     */
    void arrived(String sender, SharedRemoval shared) {
        String app = shared.application();
        Set<String> present = memberNames();
        RemovalLedger.Kept[] kept = new RemovalLedger.Kept[1];
        ledgers.compute(app, (name, ledger) -> {
            RemovalLedger keeping = ledger != null ? ledger
                    : new RemovalLedger(present, group.backups().tombstoneLifetime(), Instant.now());
            kept[0] = keeping.keep(shared.removal(), Instant.now(), shared.keepUntil(), present);
            return keeping;
        });
        if (!kept[0].tellNow().isEmpty()) { // a rebalance pass saw them appear while this removal was on its way here
            List<GroupDispatch.Frame> frames = new ArrayList<>();
            byte[] frame = group.messenger().encode(new MissedRemovals(app, List.of(shared.removal())));
            kept[0].tellNow().forEach(member -> frames.add(new GroupDispatch.Frame(member, frame)));
            plainFrames.send(app, frames);
        }
        int forgotten = kept[0].forgotten();
        if (forgotten > 0) {
            meters.counter(ReplicationMetrics.FAILURES, "app", app).increment(forgotten);
            if (overflowLogged.compareAndSet(false, true)) {
                LOG.warn("{}: {} invalidations other members made are kept for members out of their view; the oldest "
                        + "are forgotten (counted in cohort.replication.failures; logged once; last shared by {})", app,
                        RemovalLedger.MAX_REMOVALS, sender);
            }
        }
    }

    /**
     * The members changed: those that appeared get the shared removals they may have missed, as {@code MissedRemovals};
     * called first in each rebalance pass.
     */
    void membersChanged() {
        Set<String> now = memberNames();
        Instant at = Instant.now();
        ledgers.forEach((app, ledger) -> {
            Map<String, List<Removed>> owed = ledger.membersAre(now, at);
            List<GroupDispatch.Frame> frames = LateRemovals.framesFor(group.messenger(), app, owed);
            plainFrames.send(app, frames);
            owed.forEach((member, missed) -> LOG.info("{}: told {} about {} sessions other members removed while it was "
                    + "out of their view", app, member, missed.size()));
        });
    }

    /** Forgets removals that no member out of the view can need any more, and the ledgers left empty. */
    void forgetOld(Instant now) {
        for (String app : ledgers.keySet()) {
            ledgers.computeIfPresent(app, (name, ledger) -> {
                ledger.forgetOld(now);
                return ledger.size() == 0 ? null : ledger;
            });
        }
    }

    /** How many removals are kept for the application (for tests and diagnostics). */
    int size(String application) {
        RemovalLedger ledger = ledgers.get(application);
        return ledger == null ? 0 : ledger.size();
    }

    private Set<String> memberNames() {
        Set<String> names = new HashSet<>();
        group.membership().members().forEach(m -> names.add(m.name()));
        return names;
    }
}
