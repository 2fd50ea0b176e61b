package io.cohort.replication.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link FrameSeal}: who may send, to whom, when, and only once. */
class FrameSealTest {

    private static final byte[] A = identity(1);
    private static final byte[] B = identity(2);
    private static final byte[] C = identity(3);
    private static final byte[] PAYLOAD = {(byte) 0xC7, 1, 5, 42};

    private final AtomicLong now = new AtomicLong(1_800_000_000_000L);
    private final FrameSeal sender = seal(new byte[32]);
    private final FrameSeal receiver = seal(new byte[32]);

    @Test
    void aSealedMessageOpensOnceAtItsReceiver() throws Exception {
        byte[] message = sender.seal(PAYLOAD, A, B);

        assertThat(message).hasSize(PAYLOAD.length + FrameSeal.TRAILER);
        assertThat(receiver.open(message, 0, message.length, A, B)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> receiver.open(message, 0, message.length, A, B)).hasMessageContaining("seen before");
    }

    @Test
    void aMessageForOneMemberDoesNotOpenAtAnother() {
        byte[] message = sender.seal(PAYLOAD, A, B);

        assertThatThrownBy(() -> receiver.open(message, 0, message.length, A, C)).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("does not verify");
    }

    @Test
    void aMessageFromAnotherSenderThanItClaimsDoesNotOpen() {
        byte[] message = sender.seal(PAYLOAD, A, B);

        assertThatThrownBy(() -> receiver.open(message, 0, message.length, C, B)).hasMessageContaining("does not verify");
    }

    @Test
    void aMessageToAllOpensAtEveryMemberOnce() throws Exception {
        byte[] message = sender.seal(PAYLOAD, A, null);
        FrameSeal other = seal(new byte[32]);

        assertThat(receiver.open(message, 0, message.length, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(other.open(message, 0, message.length, A, C)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> other.open(message, 0, message.length, A, C)).hasMessageContaining("seen before");
    }

    @Test
    void anotherKeyOrAChangedByteOrNoSealIsRefused() {
        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        byte[] forged = seal(otherKey).seal(PAYLOAD, A, B);
        byte[] tampered = sender.seal(PAYLOAD, A, B);
        tampered[1] ^= 1;

        assertThatThrownBy(() -> receiver.open(forged, 0, forged.length, A, B)).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> receiver.open(tampered, 0, tampered.length, A, B)).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> receiver.open(PAYLOAD, 0, PAYLOAD.length, A, B)).hasMessageContaining("no seal");
    }

    @Test
    void aMessageSentOutsideTheClockSkewIsRefused() {
        byte[] message = sender.seal(PAYLOAD, A, B);
        now.addAndGet(Duration.ofMinutes(5).toMillis() + 1);

        assertThatThrownBy(() -> receiver.open(message, 0, message.length, A, B)).hasMessageContaining("clock skew");
    }

    @Test
    void messagesOvertakenOnTheWayOpenAndTheSenderNumbersAllItsMessagesInOneSequence() throws Exception {
        byte[] first = sender.seal(PAYLOAD, A, B);
        byte[] toSomeoneElse = sender.seal(PAYLOAD, A, C);
        byte[] third = sender.seal(PAYLOAD, A, B);

        assertThat(toSomeoneElse).isNotNull();
        assertThat(receiver.open(third, 0, third.length, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(receiver.open(first, 0, first.length, A, B)).as("overtaken, not replayed").isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> receiver.open(first, 0, first.length, A, B)).hasMessageContaining("seen before");
    }

    @Test
    void theWindowRefusesWhatIsTooOldToTellAndWhatPrecedesTheFirstContactByMoreThanTheMargin() {
        ReplayWindow window = new ReplayWindow(10_000);

        assertThat(window.accept(10_000 - ReplayWindow.FIRST_CONTACT_MARGIN)).as("before first contact").isFalse();
        assertThat(window.accept(9_999)).isTrue();
        assertThat(window.accept(10_000 + ReplayWindow.SIZE + 5)).isTrue();
        assertThat(window.accept(10_005)).as("too old to tell").isFalse();
        assertThat(window.accept(10_006)).as("just inside the window, never seen").isTrue();
        assertThat(window.accept(10_006)).isFalse();
    }

    @Test
    void anOffsetRegionOpensLikeAWholeArray() throws Exception {
        byte[] message = sender.seal(PAYLOAD, A, B);
        byte[] inLargerBuffer = new byte[message.length + 7];
        System.arraycopy(message, 0, inLargerBuffer, 3, message.length);

        assertThat(receiver.open(inLargerBuffer, 3, message.length, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(Arrays.copyOfRange(inLargerBuffer, 3, 3 + PAYLOAD.length)).isEqualTo(PAYLOAD);
    }

    private FrameSeal seal(byte[] key) {
        return new FrameSeal(key, Duration.ofMinutes(5), now::get);
    }

    private static byte[] identity(int n) {
        byte[] identity = new byte[16];
        Arrays.fill(identity, (byte) n);
        return identity;
    }
}
