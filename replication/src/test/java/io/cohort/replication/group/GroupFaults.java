package io.cohort.replication.group;

import io.cohort.replication.wire.ReplicationMessage;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.PhysicalAddress;
import org.jgroups.JChannel;
import org.jgroups.protocols.DISCARD;
import org.jgroups.protocols.TP;
import org.jgroups.stack.ProtocolStack;

/** Breaks a member's network on purpose, and sends what a well-behaved member never would. */
final class GroupFaults {

    private GroupFaults() {
    }

    /** Cuts the member off: it drops everything it would send or receive (a network partition). */
    static DISCARD isolate(TestMember member) throws Exception {
        JChannel channel = member.service().channel().channel();
        DISCARD discard = new DISCARD().discardAll(true).setAddress(channel.getAddress());
        channel.getProtocolStack().insertProtocol(discard, ProtocolStack.Position.ABOVE, TP.class);
        return discard;
    }

    /** Reconnects a member cut off by {@link #isolate}. */
    static void heal(TestMember member) {
        JChannel channel = member.service().channel().channel();
        DISCARD discard = channel.getProtocolStack().findProtocol(DISCARD.class);
        if (discard != null) {
            discard.discardAll(false);
        }
    }

    static Address address(TestMember member) {
        return member.service().channel().channel().getAddress();
    }

    /** Sends a message from {@code from} to {@code to}, encoded (and sealed) with {@code from}'s keys. */
    static void send(TestMember from, TestMember to, ReplicationMessage message) {
        byte[] frame = from.service().codec().encode(message);
        from.service().channel().send(address(to), frame, false);
    }

    /** Lets {@code from} reach {@code to} without being in its group (tells it {@code to}'s physical address). */
    static void introduce(TestMember from, TestMember to) {
        JChannel target = to.service().channel().channel();
        PhysicalAddress physical = (PhysicalAddress) target.down(new Event(Event.GET_PHYSICAL_ADDRESS, target.getAddress()));
        from.service().channel().channel().getProtocolStack().getTransport()
                .addPhysicalAddressToCache(target.getAddress(), physical);
    }

    /** Sends raw bytes from {@code from} to {@code to}. */
    static void sendRaw(TestMember from, TestMember to, byte[] frame) {
        from.service().channel().send(address(to), frame, false);
    }
}
