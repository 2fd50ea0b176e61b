package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.replication.wire.FrameSeal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Messages to all that come before their sender's greeting wait for it, in order, instead of being refused; what a
 * view without their sender, a replay or the cap refuses is refused as before.
 */
class SealedArrivalsTest {

    private final Address sender = UUID.randomUUID();
    private final Address self = UUID.randomUUID();
    private final FrameSeal senderSeal = new FrameSeal(new byte[32], Duration.ofMinutes(5), System::currentTimeMillis);
    private final FrameSeal selfSeal = new FrameSeal(new byte[32], Duration.ofMinutes(5), System::currentTimeMillis);
    private final RecordingInbox inbox = new RecordingInbox();
    private final SealedArrivals early = new SealedArrivals(selfSeal, GroupChannel::identity,
            () -> GroupChannel.identity(self), inbox);

    @Test
    void messagesToAllBeforeTheGreetingWaitForItAndAreDeliveredAfterItInTheOrderTheyCame() throws Exception {
        senderSeal.view(List.of(GroupChannel.identity(sender), GroupChannel.identity(self)));
        byte[] first = toAll(1);
        byte[] second = toAll(2);
        byte[] hello = senderSeal.seal(new byte[] {0}, GroupChannel.identity(sender), GroupChannel.identity(self), true);
        byte[] third = toAll(3);

        receive(first);
        receive(second);
        assertThat(inbox.frames).isEmpty();
        assertThat(early.waiting()).isEqualTo(2);

        receive(hello);
        receive(third);

        assertThat(inbox.frames).containsExactly(0, 1, 2, 3);
        assertThat(inbox.rejected).isEmpty();
        assertThat(early.waiting()).isZero();
        receive(first);
        assertThat(inbox.rejected).as("a replay of one that waited").singleElement().asString().contains("accepted before");
    }

    @Test
    void aViewWithoutTheSenderRefusesWhatWaitsForIt() throws Exception {
        receive(toAll(1));

        early.view(Set.of(self));

        assertThat(early.waiting()).isZero();
        assertThat(inbox.rejected).singleElement().asString().contains("left before any message of its own");
    }

    @Test
    void aViewThatListsTheSenderKeepsWhatWaits() throws Exception {
        receive(toAll(1));

        early.view(Set.of(self, sender));

        assertThat(early.waiting()).isOne();
        assertThat(inbox.rejected).isEmpty();
    }

    @Test
    void beyondTheCapAMessageIsRefused() throws Exception {
        for (int i = 0; i < SealedArrivals.MAX_MESSAGES; i++) {
            receive(toAll(i));
        }
        assertThat(inbox.rejected).isEmpty();

        receive(toAll(-1));

        assertThat(early.waiting()).isEqualTo(SealedArrivals.MAX_MESSAGES);
        assertThat(inbox.rejected).singleElement().asString().contains("more than this member holds");
    }

    @Test
    void aMessageToThisMemberNeverWaitsNorDoesOneThatFailsItsSeal() {
        receive(toAll(1));
        byte[] forged = toAll(2);
        forged[0] ^= 1;

        receive(senderSeal.seal(new byte[] {0}, GroupChannel.identity(sender), GroupChannel.identity(UUID.randomUUID()), true));
        receive(forged);

        assertThat(early.waiting()).isOne();
        assertThat(inbox.rejected).hasSize(2).allSatisfy(reason -> assertThat(reason).contains("does not verify"));
    }

    private byte[] toAll(int payload) {
        return senderSeal.sealToAll(new byte[] {(byte) payload}, GroupChannel.identity(sender), sealed -> sealed);
    }

    private void receive(byte[] message) {
        early.deliver(sender, message, 0, message.length);
    }

    /** Frames by their one-byte payload, and refusals. */
    private static final class RecordingInbox implements Inbox {
        final List<Integer> frames = new ArrayList<>();
        final List<String> rejected = new ArrayList<>();

        @Override
        public synchronized void frame(Address from, byte[] buffer, int offset, int length) {
            assertThat(length).isOne();
            frames.add((int) Arrays.copyOfRange(buffer, offset, offset + length)[0]);
        }

        @Override
        public synchronized void rejected(Address from, String reason) {
            rejected.add(reason);
        }

        @Override
        public void view(View view) {
        }
    }
}
