package io.cohort.replication.group;

import io.cohort.replication.wire.FrameSeal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jgroups.Address;
import org.jgroups.BytesMessage;
import org.jgroups.JChannel;
import org.jgroups.Message;
import org.jgroups.Receiver;
import org.jgroups.View;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.UUID;
import org.jgroups.util.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's connection to its replication group: a connected JGroups channel that sends frames to
 * one member or to all, and hands what arrives to an {@link Inbox}. Regular messages from one sender
 * arrive in the order they were sent (JGroups FIFO); out-of-band messages (acknowledgements, lookups)
 * may overtake them. Sending never throws: a failure is logged once and reported as {@code false}. In a secured
 * group every message is sealed for its receiver ({@link FrameSeal}): what arrives without a valid seal, meant for
 * another member, or seen before is refused before its frames are read; a message to all that comes before its
 * sender's first message to this member waits for it ({@link SealedArrivals}).
 */
final class GroupChannel implements Receiver, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(GroupChannel.class);

    private final JChannel channel;
    private final String clusterName;
    private final FrameSeal seal;
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private volatile Inbox inbox;
    private volatile SealedArrivals arrivals;
    private volatile byte[] self;

    /**
     * @param seal seals what is sent and checks what arrives; {@code null} for an unsecured group, or one whose
     *     transport authenticates every connection (TLS)
     */
    GroupChannel(JChannel channel, String clusterName, FrameSeal seal) {
        this.channel = channel;
        this.clusterName = clusterName;
        this.seal = seal;
    }

    /** Whether what this channel sends is sealed, and what arrives must be. */
    boolean seals() {
        return seal != null;
    }

    /** Joins the group; returns when this node is a member (of a group of one, if nobody answered). */
    Address connect(Inbox target) throws Exception {
        this.inbox = target;
        this.arrivals = seal == null ? null : new SealedArrivals(seal, GroupChannel::identity, this::ownIdentity, target);
        channel.setReceiver(this);
        channel.connect(clusterName);
        self = identity(channel.getAddress());
        return channel.getAddress();
    }

    /**
     * Sends to one member. {@code urgent} frames (answers and requests someone waits for: acknowledgements,
     * lookups, hellos) skip the per-sender order (JGroups OOB) and flow control (they are small and few, and
     * a sender that waited for credits here could hold up the connection's receiver thread, which delivers
     * regular messages directly).
     */
    boolean send(Address to, byte[] frame, boolean urgent) {
        return send(new BytesMessage(to, seal == null ? frame : seal.seal(frame, ownIdentity(), identity(to), urgent)),
                urgent);
    }

    /** Sends to every other member of the view. */
    boolean sendToAll(byte[] frame) {
        return seal == null ? sendToAllAsIs(frame) : seal.sealToAll(frame, ownIdentity(), this::sendToAllAsIs);
    }

    private boolean sendToAllAsIs(byte[] payload) {
        Message message = new BytesMessage(null, payload);
        message.setFlag(Message.TransientFlag.DONT_LOOPBACK);
        return send(message, false);
    }

    private boolean send(Message message, boolean urgent) {
        if (urgent) {
            message.setFlag(Message.Flag.OOB, Message.Flag.NO_FC);
        }
        try {
            channel.send(message);
            return true;
        } catch (Exception e) {
            if (failureLogged.compareAndSet(false, true)) {
                LOG.warn("Sending to {} failed: {} (further failures are logged at debug level)",
                        message.dest() == null ? "the group" : message.dest(), e.toString());
            } else {
                LOG.debug("Sending to {} failed", message.dest(), e);
            }
            return false;
        }
    }

    @Override
    public void receive(Message message) {
        deliver(message.src(), message);
    }

    @Override
    public void receive(MessageBatch batch) {
        for (Message message : batch) {
            deliver(message.src() != null ? message.src() : batch.sender(), message);
        }
    }

    /**
     * Only byte payloads are frames; anything else (e.g. an object message) arrives as an empty, rejected frame. A
     * message that names no sender (JGroups passes it up as it came) is rejected: nothing could answer or verify it.
     */
    private void deliver(Address from, Message message) {
        if (from == null) {
            inbox.rejected(null, "the message names no sender");
            return;
        }
        if (!message.hasArray()) {
            inbox.frame(from, new byte[0], 0, 0);
            return;
        }
        byte[] buffer = message.getArray();
        int offset = message.getOffset();
        int length = message.getLength();
        if (arrivals == null) {
            inbox.frame(from, buffer, offset, length);
        } else {
            arrivals.deliver(from, buffer, offset, length);
        }
    }

    private byte[] ownIdentity() {
        byte[] identity = self;
        return identity != null ? identity : identity(channel.getAddress());
    }

    /** An address as seals name it: a JGroups UUID's 128 bits (random for every start of a member). */
    static byte[] identity(Address address) {
        if (address instanceof UUID uuid) {
            return ByteBuffer.allocate(16).putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits())
                    .array();
        }
        byte[] name = String.valueOf(address).getBytes(StandardCharsets.UTF_8);
        return name.length <= 255 ? name : Arrays.copyOf(name, 255);
    }

    @Override
    public void viewAccepted(View view) {
        if (seal != null) {
            // before the inbox hears of the view (and greets the members that joined): their to-all marks are set
            seal.view(view.getMembers().stream().map(GroupChannel::identity).toList());
            SealedArrivals sealed = arrivals;
            if (sealed != null) {
                sealed.view(Set.copyOf(view.getMembers()));
            }
        }
        Inbox target = inbox;
        if (target != null) {
            target.view(view);
        }
    }

    JChannel channel() {
        return channel;
    }

    /** Leaves the group gracefully and releases the sockets. */
    @Override
    public void close() {
        channel.close();
    }

    /**
     * Drops off the network as if the process had died: no leave message, connections cut. For
     * failure tests; the others notice through failure detection.
     */
    void crash() {
        try {
            Util.shutdown(channel, false);
        } catch (Exception e) {
            channel.close();
        }
    }
}
