package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.net.Socket;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.Version;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.ObjectWrapperSerializable;
import org.jgroups.util.SeqnoList;
import org.jgroups.util.UUID;
import org.jgroups.util.Util;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What anyone who reaches a member's replication port sends, without the cluster secret: JGroups reads it before any
 * authentication or decryption, so nothing in it may run code, allocate what its length fields claim, or fill the
 * log. Each such message is refused, counted and logged once by kind; the member keeps replicating. The peer stack's
 * two TCP transports read received bytes differently (a buffer, the socket), so each case runs over both.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ArrivalGuardsTest {

    /** A class whose deserialization is visible: what a gadget chain would start with. */
    static final class Tripwire implements Serializable {
        private static final long serialVersionUID = 1L;
        static volatile String trippedOn;

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            trippedOn = Thread.currentThread().getName();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"TCP_NIO2", "TCP"})
    void javaSerializedPayloadsFromOutsideAreNeverDeserialized(String transport) throws Exception {
        Tripwire.trippedOn = null;

        refusedBySecondMember(secured(transport), 2, victim -> new byte[][] {
                frame(new ObjectMessage(address(victim), new ObjectWrapperSerializable(new Tripwire()))),
                frame(new BytesMessage(address(victim), (Object) new Tripwire()))});

        assertThat(Tripwire.trippedOn).as("the thread that deserialized the sender's object").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TCP_NIO2", "TCP"})
    void lengthsBeyondTheBytesReceivedAreRefusedBeforeAllocating(String transport) throws Exception {
        refusedBySecondMember(secured(transport), 2, victim -> {
            // a 3-byte payload declared as ~2 GiB: the length is the int before the last 3 bytes
            byte[] hugeBytes = frame(new BytesMessage(address(victim), new byte[] {1, 2, 3}));
            writeInt(hugeBytes, hugeBytes.length - 7, 0x7FFF_FFF0);
            // a one-word list of missing numbers declared to span ~2^31 of them (2^25 words): size, offset, word last
            byte[] hugeList = frame(new ObjectMessage(address(victim), new SeqnoList(64, 0).add(3)));
            writeInt(hugeList, hugeList.length - 20, 0x7FFF_FFF0);
            return new byte[][] {hugeBytes, hugeList};
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"TCP_NIO2", "TCP"})
    void aRefusedMessageInABundleLeavesTheMessagesAfterItToBeReadAndRefusedOneByOne(String transport) throws Exception {
        Tripwire.trippedOn = null;

        refusedBySecondMember(secured(transport), 2, victim -> {
            ByteArrayDataOutputStream bundle = new ByteArrayDataOutputStream(512);
            Util.writeMessageList(address(victim), UUID.randomUUID(),
                    victim.service().channel().channel().getClusterName().getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    List.of(new BytesMessage(null, (Object) new Tripwire()), new BytesMessage(null, (Object) new Tripwire())),
                    bundle, false);
            return new byte[][] {Arrays.copyOf(bundle.buffer(), bundle.position())};
        });

        assertThat(Tripwire.trippedOn).as("the thread that deserialized the sender's object").isNull();
    }

    @Test
    void unencryptedMessagesToAnEncryptingMemberAreRefusedAndCounted() throws Exception {
        refusedBySecondMember(TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true), 200,
                victim -> {
                    byte[][] flood = new byte[200][];
                    Arrays.fill(flood, frame(new BytesMessage(address(victim), new byte[] {1, 2, 3})));
                    return flood;
                });
    }

    @Test
    void aFragmentClaimingMoreFragmentsThanAnyMessageHasIsRefusedBeforeReassembly() throws Exception {
        short fragmentation = org.jgroups.conf.ClassConfigurator.getProtocolId(org.jgroups.protocols.FRAG2.class);
        refusedBySecondMember(TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()), 1, victim -> new byte[][] {
                frame(new BytesMessage(address(victim), new byte[] {1, 2, 3})
                        .putHeader(fragmentation, new org.jgroups.protocols.FragHeader(1, 0, 0x7FFF_FFF0)))});
    }

    @Test
    void aDiscoveryMessageClaimingMoreMembersThanItsBytesHoldIsRefused() throws Exception {
        refusedBySecondMember(TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()), 1, victim -> {
            org.jgroups.protocols.Discovery discovery = victim.service().channel().channel().getProtocolStack()
                    .findProtocol(org.jgroups.protocols.Discovery.class);
            return new byte[][] {frame(new BytesMessage(address(victim), new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0})
                    .putHeader(discovery.getId(), new org.jgroups.protocols.PingHeader(org.jgroups.protocols.PingHeader.GET_MBRS_RSP)))};
        });
    }

    /** What an outsider sends to one member: made once that member runs, as it names the member's address. */
    @FunctionalInterface
    private interface Frames {
        byte[][] to(TestMember victim) throws Exception;
    }

    /**
     * Starts two members of {@code group}, sends {@code frames} to the second from outside the group, and waits until
     * it refused exactly {@code count} messages; the two still replicate afterwards.
     */
    private static void refusedBySecondMember(TestGroup group, int count, Frames frames) throws Exception {
        try (group) {
            List<TestMember> members = group.startMembers(2);
            TestMember victim = members.get(1);

            sendFromOutside(victim, frames.to(victim));

            Await.until(count + " messages refused", () -> victim.rejectedMessages() == count);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("still", "working"));
            Await.until("replication still works", () -> victim.backupVersion(visit.id()) == visit.version());
        }
    }

    private static TestGroup secured(String transport) {
        return TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)
                .tuning(Map.of("cohort.transport", transport));
    }

    /** A message as the transport writes it, from a sender no member knows. */
    private static byte[] frame(Message message) throws Exception {
        message.setSrc(UUID.randomUUID());
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream(256);
        Util.writeMessage(message, out, false);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    private static org.jgroups.Address address(TestMember member) {
        return member.service().channel().channel().getAddress();
    }

    private static void writeInt(byte[] frame, int at, int value) {
        for (int i = 0; i < 4; i++) {
            frame[at + i] = (byte) (value >>> (24 - 8 * i));
        }
    }

    /** Connects to the member's port as a peer would (cookie, version, an address), then sends the frames. */
    private static void sendFromOutside(TestMember member, byte[]... frames) throws Exception {
        IpAddress listening = (IpAddress) member.service().channel().channel()
                .down(new Event(Event.GET_PHYSICAL_ADDRESS, address(member)));
        try (Socket socket = new Socket(listening.getIpAddress(), listening.getPort())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.write(new byte[] {'b', 'e', 'l', 'a'});
            out.writeShort(Version.version);
            out.write(new byte[] {0, 7, 4, 127, 0, 0, 1});
            out.writeShort(20_000);
            for (byte[] frame : frames) {
                out.writeInt(frame.length);
                out.write(frame);
            }
            out.flush();
        }
    }
}
