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

    /** Sends to every other member of the view. */
    boolean sendToAll(byte[] frame) {
        return channel.sendToAll(frame);
    }

    /** Whether to multicast a frame meant for {@code targets} other members out of {@code others}. */
    boolean multicasts(int targets, int others) {
        return multicastPreferred && targets >= 2 && targets == others;
    }
}
