package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores the write-quota of every session this node owns after the membership changed: members
 * that entered a session's placement (they joined, or a holder left and they are next best) get a
 * full copy from the owner's shadow, holders that dropped out of it are told to release their copy,
 * and holders that left are forgotten. Runs on one background thread; a change that arrives while a
 * pass runs triggers one more pass after it, so bursts of view changes cost at most two passes.
 *
 * <p>Copies this node holds of sessions whose owner left are restored by {@link OrphanedCopies} in
 * the same pass: one surviving holder, the custodian, places them as if it owned them. It compares
 * the members at this pass with those at the previous one.
 */
final class ViewRebalancer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ViewRebalancer.class);

    private final GroupContext group;
    private final Supplier<Collection<GroupSessionTransport>> transports;
    private final ExecutorService worker;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final OrphanedCopies orphans;
    /** The members at the previous pass; only the worker thread reads and writes it. */
    private List<Member> previous = List.of();

    ViewRebalancer(GroupContext group, Supplier<Collection<GroupSessionTransport>> transports) {
        this.group = group;
        this.transports = transports;
        this.orphans = new OrphanedCopies(group);
        this.worker = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-rebalance-" + group.selfName());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** The members changed; rebalance soon. */
    void membersChanged() {
        if (!worker.isShutdown() && scheduled.compareAndSet(false, true)) {
            try {
                worker.execute(() -> {
                    scheduled.set(false);
                    rebalanceAll();
                });
            } catch (RejectedExecutionException e) {
                // closing: nothing to restore any more
            }
        }
    }

    private void rebalanceAll() {
        List<Member> now = group.membership().members();
        for (GroupSessionTransport transport : transports.get()) {
            int restored = 0;
            try {
                restored = orphans.restore(transport, previous, now);
            } catch (RuntimeException e) {
                LOG.warn("{}: restoring copies of sessions whose owner left failed", transport.application(), e);
            }
            if (restored > 0) {
                LOG.info("{}: sent {} copies of sessions whose owner left, as their custodian",
                        transport.application(), restored);
            }
            if (!transport.continuous()) {
                continue;
            }
            int moved = 0;
            for (Map.Entry<String, OwnedReplica> entry : transport.owned().entries()) {
                try {
                    moved += rebalance(transport, entry.getKey(), entry.getValue());
                } catch (RuntimeException e) {
                    LOG.warn("{}: rebalancing session {} failed", transport.application(), entry.getKey(), e);
                }
            }
            if (moved > 0) {
                LOG.info("{}: restored write-quota with {} copies after a membership change to {}",
                        transport.application(), moved, group.membership().members().stream().map(Member::name).toList());
            }
        }
        previous = now;
    }

    /** Brings one session's holders in line with its placement; returns how many full copies were sent. */
    private int rebalance(GroupSessionTransport transport, String sessionId, OwnedReplica replica) {
        List<GroupDispatch.Frame> frames = new ArrayList<>();
        List<String> targets = transport.holderNames(sessionId);
        int copies = 0;
        synchronized (replica) {
            if (replica.shadow == null) {
                return 0;
            }
            transport.releaseFormerHolders(sessionId, replica, targets, frames);
            List<String> missing = targets.stream()
                    .filter(t -> replica.holders.getOrDefault(t, OwnedReplica.UNKNOWN) == OwnedReplica.UNKNOWN).toList();
            if (!missing.isEmpty()) {
                byte[] full = group.messenger().encode(new SessionUpdate(transport.application(), 0,
                        SessionChange.full(replica.shadow)));
                for (String target : missing) {
                    frames.add(new GroupDispatch.Frame(target, full));
                    replica.holders.put(target, replica.shadow.version());
                    copies++;
                }
            }
        }
        if (!frames.isEmpty()) {
            transport.plainDispatch(frames).send();
        }
        return copies;
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
