package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.ReplicationMetrics.LookupOutcome;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.Lookup;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.TakenOver;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes over a session this node does not own (a cache miss: its owner died, left, or the balancer
 * sent the user elsewhere).
 *
 * <ol>
 *   <li>A copy in the local backup store is promoted; the members most likely to hold a copy (the
 *       placement's best candidates) and the member the copy came from are asked in the same moment
 *       whether they have a newer one: this node may have been cut off while the owner went on, or
 *       the owner, still alive, may have a change on its way here (the balancer sent the user here
 *       while the owner served the previous request).</li>
 *   <li>Without a local copy every other member is asked, the owner among them if it is alive. The
 *       search waits at most {@code cache-miss-delay}; the copy with the highest version wins.</li>
 *   <li>A copy that reached this node's backup store while it waited (the owner's change that was on
 *       its way) wins if it is newer than what the answers gave.</li>
 *   <li>The node becomes the owner and sends {@link TakenOver} to every other member: the old owner
 *       stops replicating the session, holders outside the new placement (or with another version)
 *       drop their copy. Then the write-quota is restored from here: placed holders that did not
 *       report the taken version get a full copy.</li>
 * </ol>
 * With the onShutdown trigger the session is not sent again until this node stops gracefully.
 */
final class TakeoverCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(TakeoverCoordinator.class);

    private final GroupSessionTransport transport;
    private final GroupContext group;
    private final ReplicationMetrics metrics;

    TakeoverCoordinator(GroupSessionTransport transport, GroupContext group, ReplicationMetrics metrics) {
        this.transport = transport;
        this.group = group;
        this.metrics = metrics;
    }

    Optional<StoredSession> takeOver(String sessionId, Duration wait) {
        String app = transport.application();
        if (group.backups().removed(app, sessionId)) {
            metrics.lookedUp(LookupOutcome.NOT_FOUND); // invalidated: never resurrect it
            return Optional.empty();
        }
        Optional<BackupStore.Copy> local = group.backups().promote(app, sessionId);
        Optional<LookupRequests.Found> found;
        try {
            found = local.isPresent() ? confirm(sessionId, local.get(), wait) : search(sessionId, wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            found = local.map(copy -> new LookupRequests.Found(copy.session(), Set.of()));
        }
        found = newerIfArrivedMeanwhile(sessionId, found);
        if (found.isEmpty() || group.backups().removed(app, sessionId, found.get().copy().version())) { // or invalidated while this node waited
            metrics.lookedUp(LookupOutcome.NOT_FOUND);
            return Optional.empty();
        }
        boolean fromHere = local.isPresent() && found.get().copy() == local.get().session();
        metrics.lookedUp(fromHere ? LookupOutcome.FOUND_LOCAL : LookupOutcome.FOUND_REMOTE);
        become(sessionId, found.get().copy(), found.get().holders());
        return Optional.of(found.get().copy());
    }

    /**
     * Takes over an orphan this node is the custodian of, to end it ({@link GroupSessionTransport#expiredOrphans}):
     * only if its copy here expired beyond doubt and the members most likely to hold a newer one have none that has
     * not (the user may have come back at another member, or a holder got the owner's last change and this node did
     * not), and it is still in this node's custody after that round. Otherwise nothing is taken over, and the copy
     * stays in custody. A takeover that finds a newer live copy after all (it arrived between the two rounds) returns
     * it: the caller keeps that session, its interval restarted.
     */
    Optional<StoredSession> takeOverToEnd(String sessionId, Duration wait) {
        Optional<BackupStore.Copy> local = group.backups().copy(transport.application(), sessionId);
        Instant now = Instant.now();
        if (local.isEmpty() || !local.get().owner().equals(group.selfName())
                || !local.get().session().expiredBeyondDoubtAt(now)) {
            return Optional.empty();
        }
        try {
            Optional<LookupRequests.Found> newest = confirm(sessionId, local.get(), wait);
            if (newest.isEmpty() || !newest.get().copy().expiredBeyondDoubtAt(now)) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        // another member may have taken it over while this node asked (its TakenOver re-owned or dropped the copy)
        Optional<BackupStore.Copy> still = group.backups().copy(transport.application(), sessionId);
        if (still.isEmpty() || !still.get().owner().equals(group.selfName())) {
            return Optional.empty();
        }
        return takeOver(sessionId, wait);
    }

    /**
     * A local copy was found: before trusting it, ask the other likely holders and the member the copy
     * came from whether one of them has a newer version; one round trip among live members, bounded by
     * the cache-miss delay.
     */
    private Optional<LookupRequests.Found> confirm(String sessionId, BackupStore.Copy local, Duration wait)
            throws InterruptedException {
        List<Member> others = group.membership().others();
        Set<String> asked = new LinkedHashSet<>();
        transport.placement().likelyHolders(sessionId, others).forEach(m -> asked.add(m.name()));
        others.stream().map(Member::name).filter(local.owner()::equals).findFirst().ifPresent(asked::add);
        StoredSession copy = local.session();
        Optional<LookupRequests.Found> remote = asked.isEmpty() ? Optional.empty()
                : ask(sessionId, List.copyOf(asked), System.nanoTime() + wait.toNanos());
        if (remote.isPresent() && remote.get().copy().version() > copy.version()) {
            return remote;
        }
        Set<String> sameVersion = remote.filter(r -> r.copy().version() == copy.version())
                .map(LookupRequests.Found::holders).orElse(Set.of());
        return Optional.of(new LookupRequests.Found(copy, sameVersion));
    }

    /** No local copy: ask every other member at once (the owner, if alive, answers with its own state). */
    private Optional<LookupRequests.Found> search(String sessionId, Duration wait) throws InterruptedException {
        List<String> others = group.membership().others().stream().map(Member::name).toList();
        return others.isEmpty() ? Optional.empty() : ask(sessionId, others, System.nanoTime() + wait.toNanos());
    }

    /**
     * A change that was on its way here when the session was promoted finds no copy, is treated as a gap and
     * repaired with a full copy, which lands in the backup store while this node waits for answers; it is newer
     * than the copy taken from the store. Whatever is there now is taken out (this node becomes the owner), and
     * wins if it is newer than what was found.
     */
    private Optional<LookupRequests.Found> newerIfArrivedMeanwhile(String sessionId,
            Optional<LookupRequests.Found> found) {
        Optional<StoredSession> late = group.backups().promote(transport.application(), sessionId)
                .map(BackupStore.Copy::session);
        if (late.isPresent() && (found.isEmpty() || late.get().version() > found.get().copy().version())) {
            return Optional.of(new LookupRequests.Found(late.get(), Set.of()));
        }
        return found;
    }

    private Optional<LookupRequests.Found> ask(String sessionId, List<String> members, long deadline)
            throws InterruptedException {
        long correlation = group.lookups().open(sessionId, members);
        byte[] frame = group.messenger().encode(new Lookup(transport.application(), sessionId, correlation));
        for (String member : members) {
            if (group.messenger().send(member, frame, true)) {
                metrics.sentBytes(frame.length);
            } else {
                group.lookups().answered(correlation, member, Optional.empty());
            }
        }
        return group.lookups().await(correlation, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
    }

    /** Makes this node the owner of {@code copy}; {@code knownHolders} reported having exactly its version. */
    private void become(String sessionId, StoredSession copy, Set<String> knownHolders) {
        metrics.tookOver();
        List<String> holders = transport.holderNames(sessionId);
        OwnedReplica replica = new OwnedReplica(transport.continuous() ? copy : null, copy.version());
        byte[] fullCopy = null;
        List<String> missing;
        synchronized (replica) {
            for (String holder : holders) {
                if (knownHolders.contains(holder)) {
                    replica.holders.put(holder, copy.version());
                }
            }
            missing = holders.stream().filter(h -> !replica.holders.containsKey(h)).toList();
            if (transport.continuous() && !missing.isEmpty()) {
                fullCopy = group.messenger().encode(new SessionUpdate(transport.application(), 0, SessionChange.full(copy)));
                missing.forEach(h -> replica.holders.put(h, copy.version()));
            }
        }
        transport.owned().adopt(sessionId, replica);
        byte[] notice = group.messenger().encode(new TakenOver(transport.application(), sessionId, copy.version(), holders));
        for (Member other : group.membership().others()) {
            if (group.messenger().send(other.name(), notice, false)) {
                metrics.sentBytes(notice.length);
            }
        }
        if (fullCopy != null) {
            for (String holder : missing) {
                if (group.messenger().send(holder, fullCopy, false)) {
                    metrics.sentBytes(fullCopy.length);
                }
            }
        }
        LOG.debug("{}: took over session {} at version {}; holders {}", transport.application(), sessionId,
                copy.version(), holders);
    }
}
