package io.cohort.replication.group;

import io.cohort.replication.wire.MessageCodec;
import io.cohort.replication.wire.ReplicationMessage;
import org.jgroups.Address;

/**
 * Encodes messages and sends frames to members by name. The one place where member names become
 * JGroups addresses on the way out. Thread-safe.
 */
final class Messenger {

    private final GroupMembership membership;
    private final GroupChannel channel;
    private final MessageCodec codec;
    private final boolean multicastPreferred;

    /**
     * @param multicastPreferred whether a frame for every other member goes out as one multicast
     *     (IP multicast transport) rather than one copy per member
     */
    Messenger(GroupMembership membership, GroupChannel channel, MessageCodec codec, boolean multicastPreferred) {
        this.membership = membership;
        this.channel = channel;
        this.codec = codec;
        this.multicastPreferred = multicastPreferred;
    }

    byte[] encode(ReplicationMessage message) {
        return codec.encode(message);
    }

    /** Sends to a member by name; false if it is not (or no longer) a member or the send failed. */
    boolean send(String member, byte[] frame, boolean urgent) {
        return membership.addressOf(member).map(address -> channel.send(address, frame, urgent)).orElse(false);
    }

    boolean send(Address to, byte[] frame, boolean urgent) {
        return channel.send(to, frame, urgent);
    }

    /**
     * Sends to every other member of the view: one multicast over IP multicast; over TCP one message to each, sealed
     * for each (in a secured group a message to all can be replayed to a member that was away when it went out, a
     * message to one member only to that member, which refuses it as seen or too old), and in order with the other
     * messages to that member.
     */
    boolean sendToAll(byte[] frame) {
        if (multicastPreferred) {
            return channel.sendToAll(frame);
        }
        boolean all = true;
        for (Address member : membership.otherViewMembers()) {
            all &= channel.send(member, frame, false);
        }
        return all;
    }

    /** Whether to multicast a frame meant for {@code targets} other members out of {@code others}. */
    boolean multicasts(int targets, int others) {
        return multicastPreferred && targets >= 2 && targets == others;
    }
}
