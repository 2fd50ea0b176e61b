package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Random;
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
}
