package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.MessageCodec;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.WireLimits;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Garbage on the wire is rejected and counted; the receiving member keeps working. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MalformedMessageTest {

    @Test
    void garbageIsRejectedCountedAndTheMemberKeepsReplicating() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            List<TestMember> members = group.startMembers(2);
            TestMember sender = members.get(0);
            TestMember receiver = members.get(1);
            byte[] random = new byte[300];
            new Random(42).nextBytes(random);
            byte[] hugeLength = {(byte) 0xC7, 1, 2, 4, 's', 'h', 'o', 'p', 0, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};
            byte[] unknownType = {(byte) 0xC7, 1, 99};
            byte[] negativeCountBundle = {(byte) 0xC8, 1, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                    (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x01}; // frame count -1 as a long

            GroupFaults.sendRaw(sender, receiver, random);
            GroupFaults.sendRaw(sender, receiver, hugeLength);
            GroupFaults.sendRaw(sender, receiver, unknownType);
            GroupFaults.sendRaw(sender, receiver, new byte[0]);
            GroupFaults.sendRaw(sender, receiver, negativeCountBundle);

            Await.until("five frames rejected", () -> receiver.rejectedMessages() == 5);
            ShopVisit visit = new ShopVisit(sender).request(Map.of("still", "working"));
            Await.until("replication still works", () -> receiver.backupVersion(visit.id()) == visit.version());
            assertThat(receiver.rejectedMessages()).isEqualTo(5);
        }
    }

    @Test
    void aMessageThatNamesNoSenderIsRejectedAndCounted() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured("s3cret!", false)) {
            TestMember receiver = group.startMembers(2).get(1);
            byte[] payload = new byte[64];
            payload[payload.length - io.cohort.replication.wire.FrameSeal.TRAILER] = 2; // a sealed message to all's kind
            org.jgroups.Message anonymous = new org.jgroups.BytesMessage(Outsider.address(receiver), payload);
            anonymous.setFlag(org.jgroups.Message.Flag.OOB, org.jgroups.Message.Flag.NO_RELIABILITY,
                    org.jgroups.Message.Flag.NO_FC);

            Outsider.send(receiver, Outsider.frameWithoutSender(anonymous));

            Await.until("the message rejected", () -> receiver.rejectedMessages() == 1);
        }
    }

    @Test
    void aMemberNamingEverMoreApplicationsCannotMakeAnotherKeepStateForAllOfThem() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            List<TestMember> members = group.startMembers(2);
            TestMember sender = members.get(0);
            TestMember receiver = members.get(1);
            int names = KnownApplications.DEFAULT_LIMIT + 44;
            for (int i = 0; i < names; i++) { // well-formed, sealed: what a faulty member of the group could send
                GroupFaults.sendRaw(sender, receiver, CODEC.encode(new SessionUpdate("app-" + i, 0, new SessionChange(
                        "4d1f0c2a9b8e4f6a8c7d5e3f2a1b0c9d", 1, ChangeKind.FULL, Instant.EPOCH, Instant.EPOCH, 0,
                        Map.of("a", new byte[] {1}), Set.of()))));
            }

            Await.until("the names past the bound rejected", () -> receiver.rejectedMessages() == 44);
            long applicationsCounted = receiver.meters().find(io.cohort.replication.engine.ReplicationMetrics.CHANGES)
                    .tag("direction", io.cohort.replication.engine.ReplicationMetrics.RECEIVED).counters().stream()
                    .map(counter -> counter.getId().getTag("app")).distinct().count();
            assertThat(applicationsCounted).isLessThanOrEqualTo(KnownApplications.DEFAULT_LIMIT + 1);
            ShopVisit visit = new ShopVisit(sender).request(Map.of("still", "working"));
            Await.until("its own application still replicates", () -> receiver.backupVersion(visit.id()) == visit.version());
        }
    }

    @Test
    void aConnectionAnnouncingAnOversizedMessageIsClosedBeforeAnyBufferIsTakenForIt() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults())) {
            TestMember member = group.startMembers(1).get(0);
            org.jgroups.stack.IpAddress listening = (org.jgroups.stack.IpAddress) member.service().channel().channel()
                    .down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS,
                            member.service().channel().channel().getAddress()));
            try (java.net.Socket socket = new java.net.Socket(listening.getIpAddress(), listening.getPort())) {
                socket.setSoTimeout(10_000);
                java.io.DataOutputStream out = new java.io.DataOutputStream(socket.getOutputStream());
                // the connection's handshake as a peer sends it (cookie, version, its address), then a length prefix
                // of 64 MiB and nothing more: without a limit the member would set aside 64 MiB and wait for them
                out.write(new byte[] {'b', 'e', 'l', 'a'});
                out.writeShort(org.jgroups.Version.version);
                out.write(new byte[] {0, 7, 4, 127, 0, 0, 1});
                out.writeShort(20_000);
                out.writeInt(64 << 20);
                out.flush();

                // the member's own handshake may come first; then the connection must end, not wait for 64 MiB
                assertThat(socket.getInputStream().readAllBytes().length).as("the member's handshake at most")
                        .isLessThan(64);
            }
            ShopVisit visit = new ShopVisit(member).request(Map.of("still", "working"));
            assertThat(visit.id()).isNotNull();
        }
    }

    @Test
    void rejectionsAreLoggedOncePerKindWhateverTheirNumbers() {
        assertThat(MessageRouter.kindOf("message of 5 bytes has no seal (sender lacks the cluster secret?)"))
                .isEqualTo(MessageRouter.kindOf("message of 17 bytes has no seal (sender lacks the cluster secret?)"));
        assertThat(MessageRouter.kindOf("replayed message: number 17 of this sender's stream TO_ONE was accepted before"))
                .isEqualTo(MessageRouter.kindOf("replayed message: number 90211 of this sender's stream TO_ALL was accepted"))
                .isNotEqualTo(MessageRouter.kindOf("message too old to tell from a replay: number 17 of this sender's"))
                .isNotEqualTo(MessageRouter.kindOf("message seal does not verify (sender lacks the cluster secret)"));
    }

    private static final MessageCodec CODEC = new MessageCodec(WireLimits.DEFAULT);

    @Test
    void aRejectionsKindDoesNotDependOnTheNamesInTheFrame() {
        // the router logs one warning per kind of rejection, for at most a few dozen kinds: names a sender chose must
        // not make new kinds (the kind is the reason's start)
        List<String> reasons = new java.util.ArrayList<>();
        for (String name : List.of("alpha", "omega")) {
            byte[] frame = CODEC.encode(new SessionUpdate("shop", 0, new SessionChange("4d1f0c2a9b8e4f6a8c7d5e3f2a1b0c9d", 1, ChangeKind.FULL, Instant.EPOCH, Instant.EPOCH, 0,
                    new java.util.TreeMap<>(Map.of(name + "1", new byte[] {1}, name + "2", new byte[] {2})), Set.of())));
            byte[] second = (name + "2").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int at = indexOf(frame, second);
            frame[at + second.length - 1] = '1'; // the frame now names the same attribute twice
            reasons.add(catchThrowableOfType(() -> CODEC.decode(frame), MalformedMessageException.class).getMessage());
        }

        assertThat(reasons.get(0)).contains("alpha1");
        assertThat(MessageRouter.kindOf(reasons.get(0))).isEqualTo(MessageRouter.kindOf(reasons.get(1)));
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("not in the frame");
    }
}
