package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.jgroups.Address;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Restores the write-quota of every session this node owns after the membership changed: members
 * that entered a session's placement (they joined, or a holder left and they are next best) get a
 * full copy from the owner's shadow, holders that dropped out of it are told to release their copy
 * once every placed holder acknowledged one, and holders that left are forgotten. Runs on one background thread; a change that arrives while a
 * pass runs triggers one more pass after it, so bursts of view changes cost at most two passes.
 *
 * <p>Copies this node holds of sessions whose owner left are restored by {@link OrphanedCopies} in
 * the same pass: one surviving holder, the custodian, places them as if it owned them. It compares
 * the members at this pass with those at the previous one. A member whose address changed under the
 * same name restarted before the group dropped its former process: it counts as a holder without the
 * copies and, as an owner, as one that left.
 *
 * <p>Each pass begins by telling members that are back in the view (a healed partition) which sessions this node,
 * or another member that was in its view then ({@link SharedRemovals}), invalidated while they were away
 * ({@link OwedRemovals}, {@link LateRemovals}): their copies of those would otherwise outlive the removal.
 */
final class ViewRebalancer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ViewRebalancer.class);

    /** How long the placed holders have to acknowledge the full copies that release the former holders. */
    static final Duration CONFIRMATION_TIMEOUT = Duration.ofSeconds(10);
    /** How soon another pass tries again when former holders could not be released. */
    static final Duration RETRY_DELAY = Duration.ofSeconds(5);

    private final GroupContext group;
    private final Supplier<Collection<GroupSessionTransport>> transports;
    private final ExecutorService worker;
    /** Releases the former holders once confirmed; off the threads that deliver the acknowledgements. */
    private final ExecutorService confirmations;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final OrphanedCopies orphans;
    private final SharedRemovals sharedRemovals;
    /** The members at the previous pass; only the worker thread reads and writes it. */
    private List<Member> previous = List.of();
    /** Where the members were at the previous pass, by name; only the worker thread reads and writes it. */
    private Map<String, Address> previousAddresses = Map.of();

    ViewRebalancer(GroupContext group, Supplier<Collection<GroupSessionTransport>> transports,
            SharedRemovals sharedRemovals) {
        this.group = group;
        this.transports = transports;
        this.sharedRemovals = sharedRemovals;
        this.worker = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-rebalance-" + group.selfName());
            thread.setDaemon(true);
            return thread;
        });
        this.confirmations = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-release-" + group.selfName());
            thread.setDaemon(true);
            return thread;
        });
        this.orphans = new OrphanedCopies(group, confirmations, CONFIRMATION_TIMEOUT);
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
        Map<String, Address> addresses = group.membership().addresses();
        Set<String> restarted = restarted(addresses);
        if (!restarted.isEmpty()) {
            LOG.info("{}: {} restarted under the same name; the sessions they held copies of are copied to them again",
                    group.selfName(), restarted);
        }
        try {
            sharedRemovals.membersChanged(); // removals other members made, in case they are gone: first too
        } catch (RuntimeException e) {
            LOG.warn("{}: telling returning members about removals other members shared failed", group.selfName(), e);
        }
        for (GroupSessionTransport transport : transports.get()) {
            try {
                // removals first: a copy sent below under a new id must not overtake the removal of the old one
                transport.owedRemovals().membersChanged();
            } catch (RuntimeException e) {
                LOG.warn("{}: telling returning members about removals they missed failed", transport.application(), e);
            }
            int restored = 0;
            try {
                restored = orphans.restore(transport, previous, now, restarted);
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
                    moved += rebalance(transport, entry.getKey(), entry.getValue(), restarted);
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
        previousAddresses = addresses;
    }

    /**
     * The members whose address changed since the previous pass: each is a new process under the old name (it
     * restarted before the group dropped its old one), holding none of the copies its former self held.
     */
    private Set<String> restarted(Map<String, Address> addresses) {
        Set<String> restarted = new TreeSet<>();
        addresses.forEach((name, address) -> {
            Address before = previousAddresses.get(name);
            if (before != null && !before.equals(address)) {
                restarted.add(name);
            }
        });
        return restarted;
    }

    /**
     * Brings one session's holders in line with its placement; returns how many full copies were sent. Former
     * holders keep their copy until every placed holder acknowledged a full copy of the shadow, sent here with a
     * correlation; only then are they told to release it ({@link #confirmed}). A crash of this node in between
     * leaves the session its former copy rather than none.
     */
    private int rebalance(GroupSessionTransport transport, String sessionId, OwnedReplica replica,
            Set<String> restarted) {
        List<GroupDispatch.Frame> frames = new ArrayList<>();
        List<String> targets = transport.holderNames(sessionId);
        SyncAcknowledgements.Registration confirmation = null;
        int copies = 0;
        synchronized (replica) {
            if (replica.shadow == null) {
                return 0;
            }
            for (String holder : restarted) { // its copy went with its former process
                replica.holders.computeIfPresent(holder, (name, held) -> OwnedReplica.UNKNOWN);
                replica.releasing.remove(holder);
            }
            transport.retireFormerHolders(replica, targets);
            boolean confirm = !replica.releasing.isEmpty() && replica.confirming == 0;
            if (confirm && targets.isEmpty()) {
                frames.addAll(transport.releaseRetired(sessionId, replica)); // no holder to wait for
                confirm = false;
            }
            List<String> sendTo = confirm ? targets : targets.stream()
                    .filter(t -> replica.holders.getOrDefault(t, OwnedReplica.UNKNOWN) == OwnedReplica.UNKNOWN).toList();
            if (!sendTo.isEmpty()) {
                if (confirm) {
                    confirmation = group.acks().register(targets);
                    replica.confirming = confirmation.correlation();
                }
                byte[] full = group.messenger().encode(new SessionUpdate(transport.application(),
                        confirm ? confirmation.correlation() : 0, SessionChange.full(replica.shadow)));
                for (String target : sendTo) {
                    frames.add(new GroupDispatch.Frame(target, full));
                    if (replica.holders.getOrDefault(target, OwnedReplica.UNKNOWN) == OwnedReplica.UNKNOWN) {
                        copies++;
                    }
                    replica.holders.put(target, replica.shadow.version());
                }
            }
        }
        if (!frames.isEmpty()) {
            transport.plainDispatch(frames).send();
        }
        if (confirmation != null) {
            long correlation = confirmation.correlation();
            confirmation.done().orTimeout(CONFIRMATION_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
                    .whenCompleteAsync((ok, failure) -> confirmed(transport, sessionId, replica, correlation,
                            targets, failure == null), confirmations);
        }
        return copies;
    }

    /**
     * The placed holders acknowledged their full copies (or left the group, or are suspected): release the former
     * holders if the placement is still the one confirmed. Otherwise, or when a holder missed its copy or did not
     * answer in time, the former holders keep their copies and another pass confirms again.
     */
    private void confirmed(GroupSessionTransport transport, String sessionId, OwnedReplica replica, long correlation,
            List<String> confirmedTargets, boolean acknowledged) {
        List<GroupDispatch.Frame> frames = List.of();
        boolean stillWaiting;
        synchronized (replica) {
            if (replica.confirming != correlation) {
                return;
            }
            replica.confirming = 0;
            List<String> targets = transport.holderNames(sessionId);
            transport.retireFormerHolders(replica, targets);
            if (acknowledged && confirmedTargets.containsAll(targets)) {
                frames = transport.releaseRetired(sessionId, replica);
            }
            stillWaiting = !replica.releasing.isEmpty();
        }
        if (!frames.isEmpty()) {
            transport.plainDispatch(frames).send();
        }
        if (stillWaiting) {
            retryLater();
        }
    }

    /** Another pass after {@link #RETRY_DELAY}, for former holders still waiting to be released. */
    private void retryLater() {
        if (!worker.isShutdown()) {
            CompletableFuture.delayedExecutor(RETRY_DELAY.toMillis(), TimeUnit.MILLISECONDS).execute(this::membersChanged);
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
        confirmations.shutdownNow();
    }
}
