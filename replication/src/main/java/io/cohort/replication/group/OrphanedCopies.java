package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.placement.ReplicaPlacement;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Restores the copies of sessions whose owner left the view ("orphaned" copies), without messages
 * beyond the copies themselves.
 *
 * <p>Rule, evaluated by every holder of a copy whose recorded owner {@code O} is not a member any
 * more, from the members before ({@code previous}) and after ({@code now}) the change:
 * <ol>
 *   <li>The holders were {@code P = placement.holders(id, O, previous)}. Its best-ranked member that
 *       is still in the view is the <em>custodian</em> {@code C}; every surviving holder computes the
 *       same {@code C}. Holders other than {@code C} record {@code C} as the copy's owner, locally.</li>
 *   <li>{@code C} records itself as the owner and places the session as if it owned it: full copies
 *       (same version) to {@code placement.holders(id, C, now)} that are not in {@code P}, and, once
 *       those acknowledged them, {@link ReleaseCopy} to surviving members of {@code P} outside that
 *       placement (a copy that was not acknowledged in time is not released: one copy too many rather
 *       than none if the custodian fails meanwhile). With no owner,
 *       the session thus has {@code write-quota + 1} copies: the custodian's stands for the owner's
 *       live copy, so the session again survives {@code write-quota} more failures. It is exactly what
 *       a takeover by {@code C} would place, so a takeover afterwards moves at most one copy.</li>
 *   <li>A copy this node answers for as custodian is kept in place like an owned session on every
 *       later change: new placed members get a full copy, members that dropped out a release. Once it
 *       has expired beyond doubt, the custodian ends it through the application if it is deployed here
 *       ({@link GroupSessionTransport#expiredOrphans}); the holders' {@link BackupStore#sweep} drops the
 *       copies of the others later.</li>
 *   <li>If {@code P} cannot be computed ({@code O} was not in {@code previous}) or this node is not in
 *       it (the placement was not exact), this node acts as custodian itself: at worst a session gets
 *       a redundant copy, never none.</li>
 * </ol>
 * A {@code TakenOver} ends custodianship (the new owner's placement applies). Runs on the
 * rebalancer's thread only; not thread-safe.
 */
final class OrphanedCopies {

    private final GroupContext group;
    private final Executor releases;
    private final Duration confirmationTimeout;

    /**
     * @param releases            where releases are sent once the new holders acknowledged their copies
     * @param confirmationTimeout how long the new holders have to acknowledge them
     */
    OrphanedCopies(GroupContext group, Executor releases, Duration confirmationTimeout) {
        this.group = group;
        this.releases = releases;
        this.confirmationTimeout = confirmationTimeout;
    }

    /**
     * Applies the rule to every copy of {@code transport}'s application; returns how many full copies were sent.
     *
     * @param restarted members that restarted under their name since {@code previous}: as owners they left (their
     *                  new process does not own their sessions), as holders they are members without copies
     */
    int restore(GroupSessionTransport transport, List<Member> previous, List<Member> now, Set<String> restarted) {
        String self = group.selfName();
        Set<String> present = now.stream().map(Member::name).collect(Collectors.toSet());
        List<GroupDispatch.Frame> frames = new ArrayList<>();
        List<DeferredRelease> deferred = new ArrayList<>();
        int copies = 0;
        for (Map.Entry<String, BackupStore.Copy> entry : group.backups().copiesOf(transport.application()).entrySet()) {
            String id = entry.getKey();
            BackupStore.Copy copy = entry.getValue();
            if (transport.owned().owns(id)) {
                continue;
            }
            List<String> alreadyPlaced;
            if (copy.owner().equals(self)) {
                alreadyPlaced = names(transport.placement().holders(id, group.membership().self(), previous));
            } else if (present.contains(copy.owner()) && !restarted.contains(copy.owner())) {
                continue; // the owner is alive and keeps its placement itself
            } else {
                Optional<List<String>> former = formerHolders(transport.placement(), id, copy.owner(), previous);
                String custodian = former.filter(p -> p.contains(self))
                        .flatMap(p -> p.stream().filter(present::contains).findFirst()).orElse(self);
                if (!group.backups().reown(transport.application(), id, copy, custodian) || !custodian.equals(self)) {
                    continue; // taken over meanwhile, or another holder is the custodian
                }
                alreadyPlaced = former.filter(p -> p.contains(self)).orElse(List.of());
            }
            copies += place(transport, copy.session(), alreadyPlaced, present, now, frames, deferred);
        }
        if (!frames.isEmpty()) {
            transport.plainDispatch(frames).send();
        }
        for (DeferredRelease release : deferred) {
            release.acknowledged().orTimeout(confirmationTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .thenRunAsync(() -> transport.plainDispatch(release.frames()).send(), releases);
        }
        return copies;
    }

    /** Releases to send once the new holders acknowledged their full copies. */
    private record DeferredRelease(CompletableFuture<Void> acknowledged, List<GroupDispatch.Frame> frames) {
    }

    /**
     * Full copies to newly placed members, and releases to placed members that dropped out: at once when no member
     * is new, else deferred until the new ones acknowledged their copies. Returns the copies.
     */
    private int place(GroupSessionTransport transport, StoredSession session, List<String> alreadyPlaced,
            Set<String> present, List<Member> now, List<GroupDispatch.Frame> frames, List<DeferredRelease> deferred) {
        String self = group.selfName();
        List<String> targets = names(transport.placement().holders(session.id(), group.membership().self(), now));
        List<String> missing = targets.stream().filter(t -> !alreadyPlaced.contains(t)).toList();
        List<String> dropped = alreadyPlaced.stream()
                .filter(h -> !h.equals(self) && !targets.contains(h) && present.contains(h)).toList();
        SyncAcknowledgements.Registration confirmation =
                missing.isEmpty() || dropped.isEmpty() ? null : group.acks().register(missing);
        if (!missing.isEmpty()) {
            long correlation = confirmation == null ? 0 : confirmation.correlation();
            byte[] full = group.messenger().encode(new SessionUpdate(transport.application(), correlation,
                    SessionChange.full(session)));
            missing.forEach(target -> frames.add(new GroupDispatch.Frame(target, full)));
        }
        if (!dropped.isEmpty()) {
            byte[] release = group.messenger().encode(new ReleaseCopy(transport.application(), session.id(), session.version()));
            List<GroupDispatch.Frame> releaseFrames = dropped.stream().map(h -> new GroupDispatch.Frame(h, release)).toList();
            if (confirmation == null) {
                frames.addAll(releaseFrames);
            } else {
                deferred.add(new DeferredRelease(confirmation.done(), releaseFrames));
            }
        }
        return missing.size();
    }

    /** Where {@code owner} placed the session's copies in the previous view; empty if it was not in it. */
    private static Optional<List<String>> formerHolders(ReplicaPlacement placement, String id, String owner,
            List<Member> previous) {
        return previous.stream().filter(m -> m.name().equals(owner)).findFirst()
                .map(o -> names(placement.holders(id, o, previous)));
    }

    private static List<String> names(List<Member> members) {
        return members.stream().map(Member::name).toList();
    }
}
