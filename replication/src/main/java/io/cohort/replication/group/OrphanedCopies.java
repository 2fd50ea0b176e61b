package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.placement.ReplicaPlacement;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.StoredSession;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
 *       (same version) to {@code placement.holders(id, C, now)} that are not in {@code P}, and
 *       {@link ReleaseCopy} to surviving members of {@code P} outside that placement. With no owner,
 *       the session thus has {@code write-quota + 1} copies: the custodian's stands for the owner's
 *       live copy, so the session again survives {@code write-quota} more failures. It is exactly what
 *       a takeover by {@code C} would place, so a takeover afterwards moves at most one copy.</li>
 *   <li>A copy this node answers for as custodian is kept in place like an owned session on every
 *       later change: new placed members get a full copy, members that dropped out a release.</li>
 *   <li>If {@code P} cannot be computed ({@code O} was not in {@code previous}) or this node is not in
 *       it (the placement was not exact), this node acts as custodian itself: at worst a session gets
 *       a redundant copy, never none.</li>
 * </ol>
 * A {@code TakenOver} ends custodianship (the new owner's placement applies). Runs on the
 * rebalancer's thread only; not thread-safe.
 */
final class OrphanedCopies {

    private final GroupContext group;

    OrphanedCopies(GroupContext group) {
        this.group = group;
    }

    /** Applies the rule to every copy of {@code transport}'s application; returns how many full copies were sent. */
    int restore(GroupSessionTransport transport, List<Member> previous, List<Member> now) {
        String self = group.selfName();
        Set<String> present = now.stream().map(Member::name).collect(Collectors.toSet());
        List<GroupDispatch.Frame> frames = new ArrayList<>();
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
            } else if (present.contains(copy.owner())) {
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
            copies += place(transport, copy.session(), alreadyPlaced, present, now, frames);
        }
        if (!frames.isEmpty()) {
            transport.plainDispatch(frames).send();
        }
        return copies;
    }

    /** Full copies to newly placed members, releases to placed members that dropped out; returns the copies. */
    private int place(GroupSessionTransport transport, StoredSession session, List<String> alreadyPlaced,
            Set<String> present, List<Member> now, List<GroupDispatch.Frame> frames) {
        String self = group.selfName();
        List<String> targets = names(transport.placement().holders(session.id(), group.membership().self(), now));
        List<String> missing = targets.stream().filter(t -> !alreadyPlaced.contains(t)).toList();
        if (!missing.isEmpty()) {
            byte[] full = group.messenger().encode(new SessionUpdate(transport.application(), 0, SessionChange.full(session)));
            missing.forEach(target -> frames.add(new GroupDispatch.Frame(target, full)));
        }
        List<String> dropped = alreadyPlaced.stream()
                .filter(h -> !h.equals(self) && !targets.contains(h) && present.contains(h)).toList();
        if (!dropped.isEmpty()) {
            byte[] release = group.messenger().encode(new ReleaseCopy(transport.application(), session.id(), session.version()));
            dropped.forEach(holder -> frames.add(new GroupDispatch.Frame(holder, release)));
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
