package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals.Removed;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies {@link MissedRemovals}: removals that reach this node late, because it was out of the remover's view when
 * they were made (a partition that has healed; the remover kept them in its {@link RemovalLedger}).
 *
 * <p>For each removed session: a copy this node holds goes, and the id is tombstoned, up to the version the removal
 * names; a session this node owns at that version or an older one stops being owned here and the node's cache evicts
 * its live copy. Removers of this build name every version ({@link OwedRemovals#SIGNED_OFF}): a sign-off ends the
 * session also where a member on this side of the partition took it over and went on with it. A removal that names a
 * lower version (a member of an earlier build of this format sent it) leaves a newer copy or session alone
 * ({@link Ownership#WENT_ON}). A copy this node answered for as custodian, or a
 * session it owned, may have copies on members the remover never knew of (placed on this side while it was cut
 * off), and may have sent one to the remover itself after the heal (its placement as custodian runs in the same
 * moment): those removals are passed on to every other member, the remover included, once (a member passes one on
 * only when it dropped something it placed, so the passing on ends; the others are left with a tombstone, which
 * refuses a copy still on its way). Thread-safe.
 */
final class LateRemovals {

    private static final Logger LOG = LoggerFactory.getLogger(LateRemovals.class);
    /** A message of removals stays well below the transport's largest message and the bundler's 48 KiB. */
    static final int MAX_MESSAGE_BYTES = 32 * 1024;

    private final GroupContext group;
    private final Map<String, GroupSessionTransport> applications;
    private final PlainFrames plainFrames;

    LateRemovals(GroupContext group, Map<String, GroupSessionTransport> applications, PlainFrames plainFrames) {
        this.group = group;
        this.applications = applications;
        this.plainFrames = plainFrames;
    }

    /** {@code sender} tells this node about removals it missed. */
    void arrived(String sender, MissedRemovals message) {
        String app = message.application();
        GroupSessionTransport local = applications.get(app);
        List<Removed> passOn = new ArrayList<>();
        int dropped = 0;
        for (Removed removal : message.removals()) {
            Ownership ownership = local == null ? Ownership.NOT_OWNED : stopOwning(local, removal);
            if (ownership == Ownership.WENT_ON) {
                continue; // the session went on here: nothing of it to drop, and no tombstone for its own copies
            }
            boolean ownedHere = ownership == Ownership.STOPPED;
            Optional<BackupStore.Copy> copy = group.backups().removeUnlessNewer(app, removal.sessionId(), removal.version());
            if (copy.isPresent() || ownedHere) {
                dropped++;
            }
            if (ownedHere || copy.map(c -> c.owner().equals(group.selfName())).orElse(false)) {
                passOn.add(removal);
            }
        }
        if (dropped > 0) {
            LOG.info("{}: dropped {} sessions removed while members were cut off from each other (told by {})", app, dropped,
                    sender);
        }
        if (!passOn.isEmpty()) {
            List<GroupDispatch.Frame> frames = new ArrayList<>();
            for (byte[] frame : frames(group.messenger(), app, passOn)) {
                for (Member other : group.membership().others()) { // the remover too: it may have got a copy meanwhile
                    frames.add(new GroupDispatch.Frame(other.name(), frame));
                }
            }
            plainFrames.send(app, frames);
        }
    }

    /** What a late removal found of the session among those this node owns. */
    private enum Ownership {
        /** This node does not own the session. */
        NOT_OWNED,
        /** This node owned it at the removed version or an older one, and stopped owning it. */
        STOPPED,
        /** This node owns it at a newer version than the removed one (or cannot tell its version): it stays. */
        WENT_ON
    }

    /** Stops owning the session if its state here ({@link OwnedReplica#knownVersion}) is not newer than the removal. */
    private static Ownership stopOwning(GroupSessionTransport local, Removed removal) {
        String id = removal.sessionId();
        OwnedReplica replica = local.owned().get(id);
        if (replica == null) {
            return Ownership.NOT_OWNED;
        }
        long mine;
        synchronized (replica) {
            mine = replica.knownVersion();
        }
        if (mine > removal.version()) {
            return Ownership.WENT_ON; // the session went on here after the remover's last change
        }
        local.owned().disown(id);
        local.steppedBack(id);
        return Ownership.STOPPED;
    }

    /** What each member is owed, as frames of {@link MissedRemovals} addressed to it ({@link #frames}). */
    static List<GroupDispatch.Frame> framesFor(Messenger messenger, String application,
            Map<String, List<Removed>> owed) {
        List<GroupDispatch.Frame> frames = new ArrayList<>();
        owed.forEach((member, missed) -> frames(messenger, application, missed)
                .forEach(frame -> frames.add(new GroupDispatch.Frame(member, frame))));
        return frames;
    }

    /**
     * The removals as frames of {@link MissedRemovals}, in order, each of at most {@link MissedRemovals#MAX_REMOVALS}
     * removals and about {@link #MAX_MESSAGE_BYTES}.
     */
    static List<byte[]> frames(Messenger messenger, String application, List<Removed> removals) {
        List<byte[]> frames = new ArrayList<>();
        List<Removed> batch = new ArrayList<>();
        int bytes = 0;
        for (Removed removal : removals) {
            int size = removal.sessionId().getBytes(StandardCharsets.UTF_8).length + 16;
            if (!batch.isEmpty() && (batch.size() == MissedRemovals.MAX_REMOVALS || bytes + size > MAX_MESSAGE_BYTES)) {
                frames.add(messenger.encode(new MissedRemovals(application, batch)));
                batch = new ArrayList<>();
                bytes = 0;
            }
            batch.add(removal);
            bytes += size;
        }
        if (!batch.isEmpty()) {
            frames.add(messenger.encode(new MissedRemovals(application, batch)));
        }
        return frames;
    }
}
