package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.Batching;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.engine.SessionTransport;
import io.cohort.replication.placement.ReplicaPlacement;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionRemoved;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.Touch;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionCacheControl;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One application's transport over the JGroups group: places each owned session's copies on
 * {@code write-quota} other members ({@link ReplicaPlacement}), keeps the owner's shadow of what
 * the holders have ({@link OwnedSessions}), sends a delta to holders that have the previous version
 * and a full copy to the others, and correlates acknowledgements for synchronous delivery. Takeover
 * and the reaction to view changes live in {@link TakeoverCoordinator} and {@link ViewRebalancer};
 * incoming traffic reaches the owner side through {@link MessageRouter}. Thread-safe.
 */
final class GroupSessionTransport implements SessionTransport {

    private final String application;
    private final GroupContext group;
    private final ReplicaPlacement placement;
    private final boolean continuous;
    /** Synchronous delivery: removals wait for their targets, as changes do. */
    private final boolean acknowledgesRemovals;
    private final ReplicationMetrics metrics;
    private final OwnedSessions owned = new OwnedSessions();
    /** Sessions handed over at a graceful stop ({@link #forget}), kept for the holders' gap repairs until closed. */
    private final Map<String, OwnedReplica> handedOver = new ConcurrentHashMap<>();
    private final TakeoverCoordinator takeovers;
    private final SessionCacheControl cache;
    private final Runnable onClose;
    private final BooleanSupplier replaced;
    private final FrameBundler bundler;
    /** Invalidations and retired ids that members out of the view may have missed, for when they are back. */
    private final OwedRemovals owedRemovals;

    /**
     * @param onClose called when the application stops
     * @param replaced whether a newer version of the application on this node has its own transport now (a
     *     redeploy): the sessions this one hands over at its stop then stay here as copies for it
     */
    GroupSessionTransport(String application, ReplicationSettings settings, GroupContext group,
            ReplicationMetrics metrics, SessionCacheControl cache, FrameBundler bundler, Runnable onClose,
            BooleanSupplier replaced) {
        this.application = application;
        this.cache = cache;
        this.group = group;
        this.placement = new ReplicaPlacement(settings.writeQuota(), settings.allowColocation());
        this.continuous = settings.trigger() != Trigger.ON_SHUTDOWN;
        this.acknowledgesRemovals = settings.delivery() instanceof Delivery.Sync;
        this.metrics = metrics;
        this.onClose = onClose;
        this.replaced = replaced;
        this.takeovers = new TakeoverCoordinator(this, group, metrics);
        this.bundler = bundler;
        this.owedRemovals = new OwedRemovals(application, group, metrics, this::plainDispatch);
        metrics.gauge(ReplicationMetrics.OWNED, owned::size);
        metrics.gauge(ReplicationMetrics.QUOTA_DEFICIT, () -> placement.deficit(group.membership().members().size()));
    }

    String application() {
        return application;
    }

    ReplicaPlacement placement() {
        return placement;
    }

    /** Whether sessions are replicated during normal operation (not onShutdown): shadows are kept and rebalanced. */
    boolean continuous() {
        return continuous;
    }

    OwnedSessions owned() {
        return owned;
    }

    /** Asynchronous lanes send what they hold bundled per target ({@link FrameBundler}). */
    @Override
    public Batching batching() {
        return bundler.batching();
    }

    @Override
    public boolean tracks(String sessionId) {
        return owned.owns(sessionId);
    }

    @Override
    public Dispatch prepare(SessionChange change, boolean acknowledged) {
        OwnedReplica replica = owned.replicaForChange(change.id(), change.kind() == ChangeKind.FULL);
        if (replica == null) {
            return Dispatch.NONE; // another member took the session over
        }
        synchronized (replica) {
            StoredSession shadow = change.applyTo(replica.shadow);
            replica.shadow = shadow;
            replica.lastAccessSent = change.lastAccessed().toEpochMilli();
            List<String> targets = holderNames(change.id());
            List<GroupDispatch.Frame> frames = new ArrayList<>();
            retireFormerHolders(replica, targets);
            if (targets.isEmpty()) {
                return Dispatch.NONE;
            }
            List<String> deltaTargets = new ArrayList<>();
            List<String> fullTargets = new ArrayList<>();
            for (String target : targets) {
                boolean delta = change.kind() == ChangeKind.DELTA && replica.canTakeDelta(target, change.version());
                (delta ? deltaTargets : fullTargets).add(target);
                replica.holders.put(target, change.version());
            }
            SyncAcknowledgements.Registration registration = acknowledged ? group.acks().register(targets) : null;
            long correlation = registration == null ? 0 : registration.correlation();
            addFrames(frames, deltaTargets, () -> new SessionUpdate(application, correlation, change));
            addFrames(frames, fullTargets, () -> new SessionUpdate(application, correlation, SessionChange.full(shadow)));
            CompletableFuture<Void> applied = registration == null
                    ? CompletableFuture.completedFuture(null) : registration.done();
            long version = change.version();
            return new GroupDispatch(frames, group.messenger(), metrics, change.attributeCount(), applied,
                    missed -> (missed == null ? targets : List.of(missed)).forEach(holder -> {
                        sendFailed(holder);
                        holderMissed(replica, holder, version, correlation);
                    }),
                    () -> {
                        targets.forEach(t -> holderMissed(replica, t, version, correlation));
                        return true;
                    });
        }
    }

    /**
     * A session another member took over while a request here still ran on the stale copy keeps its old id there: this
     * node retires nothing (an invalidation of the old id would end the new owner's live session, and the user's work
     * there with it). The stale copy goes on under the new id as a new session of this node's, replicated like any
     * other; the user finds it if the answer that names the new id reached them, and the session they went on with at
     * the new owner otherwise. This holds once the takeover's notice has reached this node: a change of id in the few
     * milliseconds between this node's answer to the new owner's lookup and that notice (or after this node won a
     * tie for the session) still retires the old id, ending the session there.
     */
    @Override
    public boolean idChanging(String oldId, String newId) {
        return !owned.forgetDisowned(oldId);
    }

    /**
     * Removal by the owner goes to the holders it placed copies on and to former holders not yet released; by a
     * node that merely holds a copy (it never loaded the session) to everyone. A node whose session another member
     * took over drops its stale live copy, and the session lives on at its new owner, unless the user invalidated
     * it here (signed off on a request that still ran on the stale copy): that goes to everyone, the new owner
     * included, so the sign-off holds. Under synchronous delivery every member an invalidation goes to acknowledges it.
     * An invalidation (or a retired id) is also remembered for members out of the view ({@link OwedRemovals}): they
     * get it as {@code MissedRemovals} when they are back.
     */
    @Override
    public Dispatch prepareRemoval(String sessionId, RemovalCause cause) {
        if (owned.forgetDisowned(sessionId)) {
            if (cause != RemovalCause.INVALIDATED) {
                return Dispatch.NONE;
            }
            group.backups().remove(application, sessionId);
            // whatever version the new owner has: the sign-off holds
            return withShare(removalDispatch(sessionId, cause, null), owedRemovals.remember(sessionId, null));
        }
        OwnedReplica replica = owned.remove(sessionId);
        Optional<StoredSession> copy = group.backups().get(application, sessionId);
        boolean heldCopy = group.backups().remove(application, sessionId);
        Set<String> targets = new HashSet<>();
        OwedRemovals.Remembered remembered = null;
        if (replica != null) {
            StoredSession shadow;
            synchronized (replica) {
                targets.addAll(replica.holders.keySet());
                targets.addAll(replica.releasing.keySet());
                shadow = replica.shadow;
            }
            if (cause == RemovalCause.INVALIDATED) {
                remembered = owedRemovals.remember(sessionId, shadow);
                // also members the holders may not name yet: back in the view while the rebalance runs
                targets.addAll(remembered.tellNow());
            }
        } else if (heldCopy) {
            if (cause == RemovalCause.INVALIDATED && copy.isPresent()) {
                remembered = owedRemovals.remember(sessionId, copy.get());
            }
            // who else holds it is unknown here: tell everyone
            return withShare(removalDispatch(sessionId, cause, null), remembered);
        }
        return withShare(targets.isEmpty() ? Dispatch.NONE : removalDispatch(sessionId, cause, targets), remembered);
    }

    /** The removal's dispatch, carrying the {@code SharedRemoval}s its remembering asks for, if any. */
    private Dispatch withShare(Dispatch removal, OwedRemovals.Remembered remembered) {
        return remembered == null || remembered.share().isEmpty() ? removal
                : new RemovalWithShare(removal, owedRemovals.shareDispatch(remembered.share()));
    }

    /** Invalidations and retired ids kept for members out of the view, which get them when they are back. */
    OwedRemovals owedRemovals() {
        return owedRemovals;
    }

    /**
     * A removal is never dropped: a holder that missed it would keep the copy, and a later lookup would bring the
     * removed session back. If the asynchronous queue has no room, the abandoning thread sends it itself; it may
     * then overtake changes of the session still queued, which the holders refuse once the removal left a
     * tombstone.
     *
     * @param targets the members to tell, or {@code null} for every other member (one multicast frame)
     */
    private GroupDispatch removalDispatch(String sessionId, RemovalCause cause, Set<String> targets) {
        Set<String> waitedFor = targets != null ? targets : group.membership().others().stream()
                .map(Member::name).collect(Collectors.toSet());
        // not an expiry: the sweeper expires sessions one after another and must not wait on each (a copy the user
        // left alone that long is refused at a takeover once past a quarter more of its interval)
        boolean acknowledged = acknowledgesRemovals && cause == RemovalCause.INVALIDATED;
        SyncAcknowledgements.Registration registration = acknowledged ? group.acks().register(waitedFor) : null;
        long correlation = registration == null ? 0 : registration.correlation();
        byte[] frame = group.messenger().encode(new SessionRemoved(application, correlation, sessionId, cause));
        List<GroupDispatch.Frame> frames = targets == null ? List.of(new GroupDispatch.Frame(null, frame))
                : targets.stream().map(target -> new GroupDispatch.Frame(target, frame)).toList();
        CompletableFuture<Void> applied = registration == null
                ? CompletableFuture.completedFuture(null) : registration.done();
        AtomicReference<GroupDispatch> removal = new AtomicReference<>();
        removal.set(new GroupDispatch(frames, group.messenger(), metrics, -1, applied,
                missed -> {
                    plainFrameMissed(missed);
                    (missed == null ? waitedFor : Set.of(missed)).forEach(target -> removalMissed(target, correlation));
                }, () -> {
                    removal.get().send();
                    return false;
                }));
        return removal.get();
    }

    /** A removal could not be sent to {@code target}: under synchronous delivery the wait for it fails, unless it left. */
    private void removalMissed(String target, long correlation) {
        if (correlation == 0) {
            return;
        }
        if (isMember(target)) {
            group.acks().missed(correlation, target);
        } else {
            group.acks().acknowledged(correlation, target);
        }
    }

    /**
     * Refreshes the holders' last-access time at most every quarter of the inactive interval, and repairs holders
     * that missed a change (an abandoned or failed send left them {@link OwnedReplica#UNKNOWN}) with a full copy at
     * once: a session that is only read from then on would otherwise leave them behind until its copy is swept.
     */
    @Override
    public Dispatch prepareTouch(String sessionId, long version, Instant lastAccessed, long maxInactiveMillis) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null || !continuous) {
            return Dispatch.NONE;
        }
        synchronized (replica) {
            StoredSession s = replica.shadow;
            if (s == null || s.version() != version) {
                return Dispatch.NONE;
            }
            List<String> behind = holdersBehind(replica, version);
            boolean touchDue = maxInactiveMillis > 0
                    && lastAccessed.toEpochMilli() - replica.lastAccessSent >= maxInactiveMillis / 4;
            if (behind.isEmpty() && !touchDue) {
                return Dispatch.NONE; // most requests that change nothing: nothing sent, nothing allocated
            }
            List<GroupDispatch.Frame> frames = new ArrayList<>();
            if (touchDue) {
                replica.lastAccessSent = lastAccessed.toEpochMilli();
                replica.shadow = new StoredSession(s.id(), s.version(), s.created(), lastAccessed, maxInactiveMillis,
                        s.attributes());
                byte[] frame = group.messenger().encode(new Touch(application, sessionId, version, lastAccessed));
                replica.holders.forEach((holder, held) -> {
                    if (held == version) {
                        frames.add(new GroupDispatch.Frame(holder, frame));
                    }
                });
            }
            if (behind.isEmpty()) {
                return frames.isEmpty() ? Dispatch.NONE : plainDispatch(frames);
            }
            byte[] full = group.messenger().encode(new SessionUpdate(application, 0, SessionChange.full(replica.shadow)));
            behind.forEach(holder -> {
                frames.add(new GroupDispatch.Frame(holder, full));
                replica.holders.put(holder, version);
            });
            return new GroupDispatch(frames, group.messenger(), metrics, -1, CompletableFuture.completedFuture(null),
                    missed -> {
                        plainFrameMissed(missed);
                        if (missed != null && behind.contains(missed)) {
                            holderMissed(replica, missed, version, 0);
                        }
                    },
                    () -> {
                        behind.forEach(holder -> holderMissed(replica, holder, version, 0));
                        return true;
                    });
        }
    }

    @Override
    public boolean copiesBehind(String sessionId, long version) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null) {
            return false;
        }
        synchronized (replica) {
            return !holdersBehind(replica, version).isEmpty();
        }
    }

    /** The holders not known to have {@code version}; an empty list, allocating nothing, when every one has it. */
    private static List<String> holdersBehind(OwnedReplica replica, long version) {
        List<String> behind = List.of();
        for (Map.Entry<String, Long> holder : replica.holders.entrySet()) {
            if (holder.getValue() != version) {
                if (behind.isEmpty()) {
                    behind = new ArrayList<>(2);
                }
                behind.add(holder.getKey());
            }
        }
        return behind;
    }

    /**
     * The session left with a graceful stop, its last state handed to the holders. After a redeploy that state
     * also stays on this node as a copy, so the newer version of the application here takes the session over from
     * it even when no other member holds one (a cluster of one); a copy whose user never comes back is swept as
     * any orphaned copy is. Otherwise the copies elsewhere answer for the session.
     */
    @Override
    public void forget(String sessionId) {
        OwnedReplica replica = owned.remove(sessionId);
        if (replica == null) {
            return;
        }
        handedOver.put(sessionId, replica); // a holder that finds a gap in the hand-over asks for it in full
        if (!replaced.getAsBoolean()) {
            return;
        }
        StoredSession state;
        synchronized (replica) {
            state = replica.shadow;
        }
        if (state != null) {
            group.backups().apply(application, group.selfName(), SessionChange.full(state));
        }
    }

    @Override
    public Optional<StoredSession> takeOver(String sessionId, Duration wait) {
        Optional<StoredSession> mine = owned.shadow(sessionId);
        return mine.isPresent() ? mine : takeovers.takeOver(sessionId, wait);
    }

    @Override
    public Optional<StoredSession> takeOverToEnd(String sessionId, Duration wait) {
        return owned.owns(sessionId) ? Optional.empty() : takeovers.takeOverToEnd(sessionId, wait);
    }

    /**
     * The routes of the session's placement in the current view, best first: where its copies are
     * (or, before its first replication or under onShutdown, where they will go).
     */
    @Override
    public List<String> copyHolders(String sessionId) {
        return placedOn(sessionId, Member::route);
    }

    @Override
    public boolean holdsCopy(String sessionId) {
        return owned.owns(sessionId) || group.backups().contains(application, sessionId);
    }

    /**
     * The copies this node is the custodian of ({@link OrphanedCopies}: their owner left, and this node answers for
     * them as the owner would) that expired beyond doubt. The other holders of such a copy name this node as its owner,
     * so an id is normally named here only (several holders act as custodian where the placement was not exact; the
     * first to end the session takes it over, and the others' copies go).
     */
    @Override
    public Set<String> expiredOrphans(Instant now) {
        String self = group.selfName();
        Set<String> expired = new HashSet<>();
        group.backups().forEachCopy(application, (id, copy) -> {
            if (copy.owner().equals(self) && copy.session().expiredBeyondDoubtAt(now) && !owned.owns(id)) {
                expired.add(id);
            }
        });
        return expired;
    }

    @Override
    public void close() {
        onClose.run();
        owned.clear();
        handedOver.clear();
    }

    /**
     * Another member owns the session now: drop this node's live copy from the node's cache, so a
     * misrouted request here loads the current state instead of being served the stale one.
     */
    void steppedBack(String sessionId) {
        cache.evict(sessionId);
    }

    /** The members that should hold copies of a session this node owns, best first. */
    List<String> holderNames(String sessionId) {
        return placedOn(sessionId, Member::name);
    }

    /**
     * The session's placement in the current view, best first, as {@code label} names each member. Both callers run
     * on every request of a replicated session, so the few holders are copied by a loop, not a stream.
     */
    private List<String> placedOn(String sessionId, Function<Member, String> label) {
        List<Member> holders = placement.holders(sessionId, group.membership().self(), group.membership().members());
        String[] labels = new String[holders.size()];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = label.apply(holders.get(i));
        }
        return List.of(labels);
    }

    /**
     * A holder detected a gap: send it everything, with the correlation its acknowledgement settles; also for a
     * session handed over at a graceful stop, whose last change the holder could not apply.
     */
    void fullCopyRequested(String holder, String sessionId, long correlation) {
        OwnedReplica replica = owned.get(sessionId);
        if (replica == null) {
            replica = handedOver.get(sessionId);
        }
        if (replica == null) {
            missedByGone(holder, correlation);
            return;
        }
        byte[] frame;
        synchronized (replica) {
            if (replica.shadow == null) {
                missedByGone(holder, correlation);
                return;
            }
            replica.holders.put(holder, replica.shadow.version());
            frame = group.messenger().encode(new SessionUpdate(application, correlation, SessionChange.full(replica.shadow)));
        }
        if (group.messenger().send(holder, frame, false)) {
            metrics.sentBytes(frame.length);
        }
    }

    /**
     * Holders that are no longer in the placement stop getting changes: those still members keep their copy, as
     * {@link OwnedReplica#releasing}, until {@link #releaseRetired} (the rebalancer calls it once the placed holders
     * acknowledged a full copy); holders that left are forgotten. A former holder placed again is a holder again,
     * with the version it has. Called with the replica's lock held.
     */
    void retireFormerHolders(OwnedReplica replica, List<String> targets) {
        if (replica.releasing.isEmpty() && targets.containsAll(replica.holders.keySet())) {
            return; // the placement is what it was: so on nearly every change, which calls this
        }
        Set<String> present = new HashSet<>();
        group.membership().members().forEach(m -> present.add(m.name()));
        for (String target : targets) {
            Long had = replica.releasing.remove(target);
            if (had != null) {
                replica.holders.putIfAbsent(target, had);
            }
        }
        var it = replica.holders.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<String, Long> holder = it.next();
            if (targets.contains(holder.getKey())) {
                continue;
            }
            it.remove();
            if (present.contains(holder.getKey()) && replica.shadow != null) {
                replica.releasing.put(holder.getKey(), holder.getValue());
            }
        }
        replica.releasing.keySet().retainAll(present);
    }

    /**
     * Release frames for every former holder still waiting in {@link OwnedReplica#releasing}, which is then empty.
     * Called with the replica's lock held, once the placed holders acknowledged their copies.
     */
    List<GroupDispatch.Frame> releaseRetired(String sessionId, OwnedReplica replica) {
        if (replica.releasing.isEmpty() || replica.shadow == null) {
            replica.releasing.clear();
            return List.of();
        }
        byte[] release = group.messenger().encode(new ReleaseCopy(application, sessionId, replica.shadow.version()));
        List<GroupDispatch.Frame> frames = new ArrayList<>();
        replica.releasing.keySet().forEach(holder -> frames.add(new GroupDispatch.Frame(holder, release)));
        replica.releasing.clear();
        return frames;
    }

    /** Frames that are not a session change and need no acknowledgement. */
    GroupDispatch plainDispatch(List<GroupDispatch.Frame> frames) {
        return new GroupDispatch(frames, group.messenger(), metrics, -1, CompletableFuture.completedFuture(null),
                this::plainFrameMissed, () -> true);
    }

    /** A frame that is not a change could not be sent: counted unless it was a multicast ({@code null} target). */
    private void plainFrameMissed(String target) {
        if (target != null) {
            sendFailed(target);
        }
    }

    /** Counts a frame that could not be sent to a member still in the group (one that left owes nothing). */
    private void sendFailed(String holder) {
        if (isMember(holder)) {
            metrics.failed();
        }
    }

    private boolean isMember(String name) {
        return group.membership().addressOf(name).isPresent();
    }

    /** One frame for all targets: a multicast when they are every other member and the transport prefers it. */
    private void addFrames(List<GroupDispatch.Frame> frames, List<String> targets, Supplier<SessionUpdate> message) {
        if (targets.isEmpty()) {
            return;
        }
        byte[] frame = group.messenger().encode(message.get());
        if (group.messenger().multicasts(targets.size(), group.membership().others().size())) {
            frames.add(new GroupDispatch.Frame(null, frame));
        } else {
            targets.forEach(target -> frames.add(new GroupDispatch.Frame(target, frame)));
        }
    }

    /** The session is no longer owned here, so the holder that asked for it in full will not apply that change. */
    private void missedByGone(String holder, long correlation) {
        if (correlation != 0) {
            group.acks().missed(correlation, holder);
        }
    }

    /** A holder did not get {@code version} (abandoned or failed send): it gets a full copy next time. */
    private void holderMissed(OwnedReplica replica, String holder, long version, long correlation) {
        synchronized (replica) {
            replica.holders.computeIfPresent(holder, (name, held) -> held == version ? OwnedReplica.UNKNOWN : held);
        }
        if (correlation != 0) {
            if (isMember(holder)) {
                group.acks().missed(correlation, holder);
            } else {
                group.acks().acknowledged(correlation, holder); // it left the group: its acknowledgement is waived
            }
        }
    }
}
