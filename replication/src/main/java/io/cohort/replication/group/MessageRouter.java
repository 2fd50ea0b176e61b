package io.cohort.replication.group;

import io.cohort.metrics.OncePerKind;
import io.cohort.replication.engine.ReceivedMeters;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.FrameBundle;
import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.MessageCodec;
import io.cohort.replication.wire.ReplicationMessage;
import io.cohort.replication.wire.ReplicationMessage.Acknowledgement;
import io.cohort.replication.wire.ReplicationMessage.ForApplication;
import io.cohort.replication.wire.ReplicationMessage.FullCopyRequest;
import io.cohort.replication.wire.ReplicationMessage.Hello;
import io.cohort.replication.wire.ReplicationMessage.Lookup;
import io.cohort.replication.wire.ReplicationMessage.LookupReply;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionRemoved;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.SharedRemoval;
import io.cohort.replication.wire.ReplicationMessage.TakenOver;
import io.cohort.replication.wire.ReplicationMessage.Touch;
import io.cohort.session.StoredSession;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jgroups.Address;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives every frame of the group, decodes it defensively and hands it to the part of the node it
 * concerns: holder-side work (applying changes, answering lookups) to the {@link BackupStore},
 * owner-side work to the application's {@link GroupSessionTransport}, answers to the waiting
 * {@link SyncAcknowledgements} and {@link LookupRequests}. A frame that does not decode (garbage,
 * an unknown type, a bad seal), and a bundle of frames that is not well formed, is dropped, counted
 * in {@code cohort.replication.messages.rejected} and logged once; nothing a peer sends can make this
 * class throw.
 */
final class MessageRouter implements Inbox {

    private static final Logger LOG = LoggerFactory.getLogger(MessageRouter.class);

    private final GroupContext group;
    private final MessageCodec codec;
    private final Map<String, GroupSessionTransport> applications;
    private final MeterRegistry meters;
    private final ReceivedMeters received;
    private final Counter rejected;
    private static final int MAX_REJECTION_KINDS_LOGGED = 32;
    /** The kinds of rejection already logged at warning level (each kind once: a clock step is not hidden by garbage). */
    private final OncePerKind rejectionsLogged = new OncePerKind(MAX_REJECTION_KINDS_LOGGED);
    private final Function<View, Void> onView;
    private final KnownApplications known;
    private final LateRemovals lateRemovals;
    private final SharedRemovals sharedRemovals;

    MessageRouter(GroupContext group, MessageCodec codec, Map<String, GroupSessionTransport> applications,
            MeterRegistry meters, SharedRemovals sharedRemovals, PlainFrames plainFrames, Function<View, Void> onView) {
        this.group = group;
        this.codec = codec;
        this.applications = applications;
        this.meters = meters;
        this.received = new ReceivedMeters(meters);
        this.rejected = ReplicationMetrics.rejected(meters);
        this.onView = onView;
        this.known = new KnownApplications(applications::containsKey, KnownApplications.DEFAULT_LIMIT);
        this.lateRemovals = new LateRemovals(group, applications, plainFrames);
        this.sharedRemovals = sharedRemovals;
    }

    @Override
    public void view(View view) {
        onView.apply(view);
    }

    @Override
    public void rejected(Address from, String reason) {
        reject(from, reason);
    }

    /** A single frame, or a {@link FrameBundle} whose frames are routed one by one, in order. */
    @Override
    public void frame(Address from, byte[] buffer, int offset, int length) {
        if (!FrameBundle.isBundle(buffer, offset, length)) {
            single(from, buffer, offset, length);
            return;
        }
        int[] regions;
        try {
            regions = FrameBundle.regions(buffer, offset, length);
        } catch (MalformedMessageException e) {
            reject(from, e.getMessage());
            return;
        } catch (RuntimeException e) { // a decoder defect: still the frame's fault, never the batch's
            reject(from, "could not be decoded: " + e);
            return;
        }
        for (int i = 0; i < regions.length; i += 2) {
            single(from, buffer, regions[i], regions[i + 1]);
        }
    }

    private void single(Address from, byte[] buffer, int offset, int length) {
        ReplicationMessage message;
        try {
            message = codec.decode(buffer, offset, length);
        } catch (MalformedMessageException e) {
            reject(from, e.getMessage());
            return;
        } catch (RuntimeException e) { // a decoder defect: still the frame's fault, never the batch's
            reject(from, "could not be decoded: " + e);
            return;
        }
        try {
            route(from, message, length);
        } catch (RuntimeException e) {
            reject(from, "could not be handled: " + e);
        }
    }

    private void route(Address from, ReplicationMessage message, int length) {
        if (message instanceof ForApplication about && !known.admit(about.application())) {
            reject(from, "names more applications than a member keeps apart (" + KnownApplications.DEFAULT_LIMIT
                    + " besides its own): " + about.application());
            return;
        }
        String sender = group.membership().nameOf(from);
        if (message instanceof Hello hello) {
            if (group.membership().greeted(from, hello.member())) {
                group.messenger().send(from, codec.encode(new Hello(group.membership().self())), true);
            }
        } else if (message instanceof SessionUpdate update) {
            received.change(update.application(), length);
            applyUpdate(from, sender, update);
        } else if (message instanceof Acknowledgement ack) {
            group.acks().acknowledged(ack.correlation(), sender);
        } else if (message instanceof LookupReply reply) {
            if (!group.lookups().answered(reply.correlation(), sender, reply.copy())) {
                reject(from, "a lookup answer this node did not ask " + sender + " for");
            }
        } else if (message instanceof SessionRemoved removed) {
            received.bytes(removed.application(), length);
            group.backups().remove(removed.application(), removed.sessionId());
            GroupSessionTransport local = applications.get(removed.application());
            if (local != null && local.owned().owns(removed.sessionId())) {
                local.owned().disown(removed.sessionId());
                local.steppedBack(removed.sessionId());
            }
            acknowledge(from, removed.correlation());
        } else if (message instanceof MissedRemovals missed) {
            received.bytes(missed.application(), length);
            lateRemovals.arrived(sender, missed);
        } else if (message instanceof SharedRemoval shared) {
            received.bytes(shared.application(), length);
            sharedRemovals.arrived(sender, shared);
        } else if (message instanceof ReleaseCopy release) {
            received.bytes(release.application(), length);
            group.backups().release(release.application(), release.sessionId(), release.version(), sender,
                    name -> group.membership().addressOf(name).isPresent());
        } else if (message instanceof Touch touch) {
            received.bytes(touch.application(), length);
            group.backups().touch(touch.application(), touch.sessionId(), touch.version(), touch.lastAccessed());
        } else if (message instanceof FullCopyRequest request) {
            GroupSessionTransport owner = applications.get(request.application());
            if (owner != null) {
                owner.fullCopyRequested(sender, request.sessionId(), request.correlation());
            }
        } else if (message instanceof Lookup lookup) {
            answerLookup(from, sender, lookup);
        } else if (message instanceof TakenOver notice) {
            received.bytes(notice.application(), length);
            group.backups().takenOver(notice.application(), notice.sessionId(), sender, notice.version(),
                    notice.holders(), group.selfName());
            GroupSessionTransport previousOwner = applications.get(notice.application());
            if (previousOwner != null) {
                // the old owner reported its state in the lookup; placed as a holder, it keeps it as a copy
                previousOwner.owned().takenOverBy(group.selfName(), sender, notice.sessionId(), notice.version())
                        .filter(state -> state.version() == notice.version() && notice.holders().contains(group.selfName()))
                        .ifPresent(state -> group.backups().apply(notice.application(), sender, SessionChange.full(state)));
                if (!previousOwner.owned().owns(notice.sessionId())) {
                    // unless this node won a tie for the session, its live copy (if any) is stale now
                    previousOwner.steppedBack(notice.sessionId());
                }
            }
        }
    }

    private void applyUpdate(Address from, String sender, SessionUpdate update) {
        GroupSessionTransport local = applications.get(update.application());
        String id = update.change().id();
        if (local != null && local.owned().owns(id)) {
            long mine = local.owned().shadow(id).map(StoredSession::version).orElse(Long.MAX_VALUE);
            if (update.change().version() <= mine) {
                // this node owns the session (it took it over): a change from elsewhere is stale
                acknowledge(from, update.correlation());
                return;
            }
            // the session went on at the sender: while this node was cut off from it (a partition that
            // has healed), or in a change the sender made as this node's takeover was on its way to it
            // (the balancer failed a request over while the owner still served another). This node's
            // live copy is stale, so it steps back and keeps the sender's state as a copy (below)
            // instead of serving or replicating its own. Its own state becomes that copy's base: a
            // delta from the sender applies to it, and if the sender yields to the takeover meanwhile,
            // the session survives here as a copy that the next request takes over again.
            Optional<StoredSession> stale = local.owned().shadow(id);
            local.owned().disown(id);
            local.steppedBack(id);
            stale.ifPresent(state -> group.backups().apply(update.application(), sender, SessionChange.full(state)));
            LOG.info("{}: a session this node owned at version {} went on at {} (version {}) while they were apart; "
                    + "stepping back", update.application(), mine, sender, update.change().version());
        }
        BackupStore.Outcome outcome = group.backups().apply(update.application(), sender, update.change());
        if (outcome == BackupStore.Outcome.GAP) {
            ReplicationMetrics.gap(meters, update.application());
            byte[] request = codec.encode(new FullCopyRequest(update.application(), update.change().id(),
                    update.correlation()));
            group.messenger().send(from, request, true);
            return;
        }
        acknowledge(from, update.correlation());
    }

    private void answerLookup(Address from, String sender, Lookup lookup) {
        GroupSessionTransport local = applications.get(lookup.application());
        Optional<StoredSession> copy = local == null ? Optional.empty()
                : local.owned().shadowForLookup(lookup.sessionId(), sender);
        if (copy.isEmpty()) {
            copy = group.backups().get(lookup.application(), lookup.sessionId());
        }
        byte[] reply = codec.encode(new LookupReply(lookup.correlation(), copy));
        if (group.messenger().send(from, reply, true)) {
            meters.counter(ReplicationMetrics.BYTES, "app", lookup.application(), "direction", ReplicationMetrics.SENT)
                    .increment(reply.length);
        }
    }

    private void acknowledge(Address to, long correlation) {
        if (correlation != ReplicationMessage.NO_CORRELATION) {
            group.messenger().send(to, codec.encode(new Acknowledgement(correlation)), true);
        }
    }

    /**
     * A rejection's kind: the start of its reason, before any {@code ": "} (what follows names what the sender chose)
     * and at most 30 characters, with its numbers left out.
     */
    static String kindOf(String reason) {
        String shape = reason.replaceAll("[0-9]+", "#");
        int details = shape.indexOf(": ");
        return shape.substring(0, Math.min(details < 0 ? shape.length() : details, 30));
    }

    private void reject(Address from, String reason) {
        rejected.increment();
        if (rejectionsLogged.first(kindOf(reason))) {
            LOG.warn("Rejected a replication message from {}: {} (further rejections of this kind are only counted in {})",
                    from, reason, ReplicationMetrics.REJECTED);
        } else {
            LOG.debug("Rejected a replication message from {}: {}", from, reason);
        }
    }
}
