package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jgroups.BytesMessage;
import org.jgroups.ObjectMessage;
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
                Outsider.frame(new ObjectMessage(Outsider.address(victim), new ObjectWrapperSerializable(new Tripwire()))),
                Outsider.frame(new BytesMessage(Outsider.address(victim), (Object) new Tripwire()))});

        assertThat(Tripwire.trippedOn).as("the thread that deserialized the sender's object").isNull();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TCP_NIO2", "TCP"})
    void lengthsBeyondTheBytesReceivedAreRefusedBeforeAllocating(String transport) throws Exception {
        refusedBySecondMember(secured(transport), 2, victim -> {
            // a 3-byte payload declared as ~2 GiB: the length is the int before the last 3 bytes
            byte[] hugeBytes = Outsider.frame(new BytesMessage(Outsider.address(victim), new byte[] {1, 2, 3}));
            Outsider.writeInt(hugeBytes, hugeBytes.length - 7, 0x7FFF_FFF0);
            // a one-word list of missing numbers declared to span ~2^31 of them (2^25 words): size, offset, word last
            byte[] hugeList = Outsider.frame(new ObjectMessage(Outsider.address(victim), new SeqnoList(64, 0).add(3)));
            Outsider.writeInt(hugeList, hugeList.length - 20, 0x7FFF_FFF0);
            return new byte[][] {hugeBytes, hugeList};
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"TCP_NIO2", "TCP"})
    void aRefusedMessageInABundleLeavesTheMessagesAfterItToBeReadAndRefusedOneByOne(String transport) throws Exception {
        Tripwire.trippedOn = null;

        refusedBySecondMember(secured(transport), 2, victim -> {
            ByteArrayDataOutputStream bundle = new ByteArrayDataOutputStream(512);
            Util.writeMessageList(Outsider.address(victim), UUID.randomUUID(),
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
                    Arrays.fill(flood, Outsider.frame(new BytesMessage(Outsider.address(victim), new byte[] {1, 2, 3})));
                    return flood;
                });
    }

    @Test
    void aFragmentClaimingMoreFragmentsThanAnyMessageHasIsRefusedBeforeReassembly() throws Exception {
        short fragmentation = org.jgroups.conf.ClassConfigurator.getProtocolId(org.jgroups.protocols.FRAG2.class);
        refusedBySecondMember(TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()), 1, victim -> new byte[][] {
                Outsider.frame(new BytesMessage(Outsider.address(victim), new byte[] {1, 2, 3})
                        .putHeader(fragmentation, new org.jgroups.protocols.FragHeader(1, 0, 0x7FFF_FFF0)))});
    }

    @Test
    void aDiscoveryMessageClaimingMoreMembersThanItsBytesHoldIsRefused() throws Exception {
        refusedBySecondMember(TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()), 1, victim -> {
            org.jgroups.protocols.Discovery discovery = victim.service().channel().channel().getProtocolStack()
                    .findProtocol(org.jgroups.protocols.Discovery.class);
            return new byte[][] {Outsider.frame(new BytesMessage(Outsider.address(victim), new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xF0})
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

            Outsider.send(victim, frames.to(victim));

            Await.until(count + " messages refused", () -> victim.rejectedMessages() == count);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("still", "working"));
            Await.until("replication still works", () -> victim.backupVersion(visit.id()) == visit.version());
        }
    }

    private static TestGroup secured(String transport) {
        return TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", true)
                .tuning(Map.of("cohort.transport", transport));
    }
}
