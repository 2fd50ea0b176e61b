package io.cohort.replication.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** {@link FrameSeal}: who may send, to whom, and only once. */
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
        byte[] message = sender.seal(PAYLOAD, A, B, false);

        assertThat(message).hasSize(PAYLOAD.length + FrameSeal.TRAILER);
        assertThat(open(receiver, message, A, B)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(receiver, message, A, B)).hasMessageContaining("replayed message");
    }

    @Test
    void aMessageForOneMemberDoesNotOpenAtAnother() {
        byte[] message = sender.seal(PAYLOAD, A, B, false);

        assertThatThrownBy(() -> open(receiver, message, A, C)).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("does not verify");
    }

    @Test
    void aMessageFromAnotherSenderThanItClaimsDoesNotOpen() {
        byte[] message = sender.seal(PAYLOAD, A, B, false);

        assertThatThrownBy(() -> open(receiver, message, C, B)).hasMessageContaining("does not verify");
    }

    @Test
    void anotherKeyOrAChangedByteOrNoSealIsRefused() {
        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        byte[] forged = seal(otherKey).seal(PAYLOAD, A, B, false);
        byte[] tampered = sender.seal(PAYLOAD, A, B, false);
        tampered[1] ^= 1;
        byte[] otherStream = sender.seal(PAYLOAD, A, B, false);
        otherStream[PAYLOAD.length] = 3; // claimed urgent: another stream, numbered apart

        assertThatThrownBy(() -> open(receiver, forged, A, B)).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> open(receiver, tampered, A, B)).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> open(receiver, otherStream, A, B)).hasMessageContaining("does not verify");
        assertThatThrownBy(() -> receiver.open(PAYLOAD, 0, PAYLOAD.length, A, B)).hasMessageContaining("no seal");
    }

    @Test
    void aStreamsFirstMessageMustBeFreshButLaterOnesSurviveAClockStep() throws Exception {
        byte[] stale = sender.seal(PAYLOAD, A, B, false);
        now.addAndGet(Duration.ofMinutes(5).toMillis() + 1);
        assertThatThrownBy(() -> open(receiver, stale, A, B)).hasMessageContaining("clock skew");

        byte[] fresh = sender.seal(PAYLOAD, A, B, false);
        assertThat(open(receiver, fresh, A, B)).isEqualTo(PAYLOAD.length);
        now.addAndGet(-Duration.ofHours(1).toMillis()); // the receiver's clock steps back an hour
        byte[] next = sender.seal(PAYLOAD, A, B, false);
        now.addAndGet(Duration.ofHours(1).toMillis());
        assertThat(open(receiver, next, A, B)).as("a stream already met").isEqualTo(PAYLOAD.length);
    }

    @Test
    void eachStreamToOneMemberIsNumberedOnItsOwnSoTrafficToOthersAndUrgentAnswersDoNotPushItsMessagesOut()
            throws Exception {
        byte[] held = sender.seal(PAYLOAD, A, B, false); // waits in flow control on its way to B
        for (int i = 0; i < ReplayWindow.SIZE + 10; i++) {
            sender.seal(PAYLOAD, A, C, false);
        }
        byte[] urgent = sender.seal(PAYLOAD, A, B, true);
        byte[] next = sender.seal(PAYLOAD, A, B, false);

        assertThat(open(receiver, urgent, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(open(receiver, next, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(open(receiver, held, A, B)).as("overtaken, not replayed").isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(receiver, held, A, B)).hasMessageContaining("accepted before");
    }

    @Test
    void aMessageToAllOpensAtEveryMemberThatHeardFromItsSenderOnce() throws Exception {
        FrameSeal other = seal(new byte[32]);
        byte[] helloB = sender.seal(PAYLOAD, A, B, true);
        byte[] hello = sender.seal(PAYLOAD, A, C, true);
        byte[] toAll = toAll();
        assertThat(open(receiver, helloB, A, B)).isEqualTo(PAYLOAD.length);

        assertThat(open(receiver, toAll, A, B)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(other, toAll, A, C)).as("C has not heard from A yet")
                .isInstanceOf(ToAllBeforeMarkException.class).hasMessageContaining("before any message of the sender's own");
        assertThat(open(other, hello, A, C)).isEqualTo(PAYLOAD.length);
        assertThat(open(other, toAll(), A, C)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(receiver, toAll, A, B)).hasMessageContaining("accepted before");
    }

    @Test
    void aMemberThatJustJoinedCannotBeFedABacklogOfCapturedMessagesToAll() throws Exception {
        List<byte[]> captured = List.of(toAll(), toAll());
        now.addAndGet(FrameSeal.TO_ALL_GRACE.toMillis() + 1);
        FrameSeal joined = seal(new byte[32]);
        byte[] hello = sender.seal(PAYLOAD, A, C, true); // the sender greets the member that joined

        assertThat(open(joined, hello, A, C)).isEqualTo(PAYLOAD.length);
        for (byte[] replay : captured) {
            assertThatThrownBy(() -> open(joined, replay, A, C)).hasMessageContaining("sent before this member joined");
        }
        assertThat(open(joined, toAll(), A, C)).as("sent after the greeting")
                .isEqualTo(PAYLOAD.length);
    }

    @Test
    void aMessageToAllStillOnItsWayIntoTheTransportWhenAMemberJoinsIsAcceptedThereHoweverLongItWaited()
            throws Exception {
        byte[] handedOver = toAll();
        FrameSeal joined = seal(new byte[32]);
        byte[][] hello = new byte[1][];
        byte[] waited = sender.sealToAll(PAYLOAD, A, sealed -> { // waits for flow-control credits meanwhile:
            now.addAndGet(FrameSeal.TO_ALL_GRACE.toMillis() + 1);
            sender.view(List.of(A, B, C)); // C joins
            hello[0] = sender.seal(PAYLOAD, A, C, true);
            return sealed;
        });

        assertThat(open(joined, hello[0], A, C)).isEqualTo(PAYLOAD.length);
        assertThat(open(joined, waited, A, C)).as("numbered above C's mark").isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(joined, handedOver, A, C)).as("handed over before C's mark, long before")
                .hasMessageContaining("sent before this member joined");
    }

    @Test
    void aMemberAcceptsTheMessagesToAllNumberedAfterItEnteredTheSendersViewThoughSentBeforeTheGreeting()
            throws Exception {
        byte[] longBefore = toAll();
        now.addAndGet(FrameSeal.TO_ALL_GRACE.toMillis() + 1);
        byte[] justBefore = toAll(); // the view reached the transport, not the sender yet
        sender.view(List.of(A, B, C)); // C joined
        byte[] afterTheJoin = toAll(); // a lane's message, before the greeting went out
        byte[] hello = sender.seal(PAYLOAD, A, C, true);
        FrameSeal joined = seal(new byte[32]);

        assertThat(open(joined, hello, A, C)).isEqualTo(PAYLOAD.length);
        assertThat(open(joined, afterTheJoin, A, C)).isEqualTo(PAYLOAD.length);
        assertThat(open(joined, justBefore, A, C)).as("at the mark, sent within the grace").isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(joined, longBefore, A, C)).hasMessageContaining("sent before this member joined");
    }

    @Test
    void anUrgentStreamsFirstMessageMayArriveLongAfterLaterOnes() throws Exception {
        List<byte[]> urgent = new java.util.ArrayList<>();
        for (int i = 0; i < 10 * FrameSeal.STREAM_START_MARGIN; i++) {
            urgent.add(sender.seal(PAYLOAD, A, B, true)); // the first one was lost and comes back retransmitted
        }
        assertThat(open(receiver, urgent.get(urgent.size() - 1), A, B)).as("the first to arrive").isEqualTo(PAYLOAD.length);
        for (byte[] message : urgent.subList(1, urgent.size() - 1)) {
            assertThat(open(receiver, message, A, B)).isEqualTo(PAYLOAD.length);
        }

        assertThat(open(receiver, urgent.get(0), A, B)).as("out of band: overtaken, not replayed").isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(receiver, urgent.get(0), A, B)).hasMessageContaining("accepted before");
    }

    @Test
    void theStreamsOfASenderStillInTheViewAreKeptAndThoseOfOneThatLeftAndWentQuietForgotten() throws Exception {
        byte[] first = sender.seal(PAYLOAD, A, B, false);
        assertThat(open(receiver, first, A, B)).isEqualTo(PAYLOAD.length);

        receiver.forgetSendersOtherThan(List.of(A, B));
        assertThatThrownBy(() -> open(receiver, first, A, B)).as("kept: still a replay").hasMessageContaining("accepted before");
        receiver.forgetSendersOtherThan(List.of(B)); // A left, but spoke just now: kept until quiet
        assertThatThrownBy(() -> open(receiver, first, A, B)).hasMessageContaining("accepted before");
    }

    @Test
    void aStreamMetAgainAfterItWasForgottenRefusesItsOlderMessages() throws Exception {
        List<byte[]> old = new java.util.ArrayList<>();
        for (int i = 0; i < FrameSeal.STREAM_START_MARGIN + 2; i++) {
            old.add(sender.seal(PAYLOAD, A, B, false)); // captured while B never saw them (A was partitioned away)
        }
        byte[] later = sender.seal(PAYLOAD, A, B, false);
        FrameSeal forgotten = seal(new byte[32]);

        assertThat(open(forgotten, later, A, B)).isEqualTo(PAYLOAD.length);
        assertThatThrownBy(() -> open(forgotten, old.get(0), A, B)).hasMessageContaining("older than");
        assertThat(open(forgotten, old.get(old.size() - 1), A, B)).as("within the margin: overtaken on the way")
                .isEqualTo(PAYLOAD.length);
    }

    @Test
    void theWindowRefusesWhatIsTooOldOrAtTheFloorAndRemembersWhatItAccepted() {
        ReplayWindow window = new ReplayWindow(10_000);

        assertThat(window.accept(10_000)).as("at the floor").isEqualTo(ReplayWindow.Verdict.TOO_OLD);
        assertThat(window.accept(10_001)).isEqualTo(ReplayWindow.Verdict.ACCEPTED);
        assertThat(window.accept(10_000 + ReplayWindow.SIZE + 5)).isEqualTo(ReplayWindow.Verdict.ACCEPTED);
        assertThat(window.accept(10_005)).as("too old to tell").isEqualTo(ReplayWindow.Verdict.TOO_OLD);
        assertThat(window.accept(10_006)).as("just inside the window, never seen").isEqualTo(ReplayWindow.Verdict.ACCEPTED);
        assertThat(window.accept(10_006)).isEqualTo(ReplayWindow.Verdict.SEEN_BEFORE);
    }

    @Test
    void numbersSkippedByAnAdvanceAreForgottenAndCanArriveLaterOnce() {
        ReplayWindow window = new ReplayWindow(99);
        assertThat(window.accept(100 + ReplayWindow.SIZE - 1)).isEqualTo(ReplayWindow.Verdict.ACCEPTED);

        for (long n = 101; n < 100 + ReplayWindow.SIZE - 1; n += 997) {
            assertThat(window.accept(n)).as("skipped %d, arriving late", n).isEqualTo(ReplayWindow.Verdict.ACCEPTED);
            assertThat(window.accept(n)).as("%d again", n).isEqualTo(ReplayWindow.Verdict.SEEN_BEFORE);
        }
        // wrapping round: numbers a whole window later reuse the same bits, which the advance cleared
        assertThat(window.accept(101 + 2L * ReplayWindow.SIZE)).isEqualTo(ReplayWindow.Verdict.ACCEPTED);
        assertThat(window.accept(102 + ReplayWindow.SIZE)).as("skipped by the second advance")
                .isEqualTo(ReplayWindow.Verdict.ACCEPTED);
        assertThat(window.accept(101 + ReplayWindow.SIZE)).isEqualTo(ReplayWindow.Verdict.TOO_OLD);
    }

    @Test
    void aRetiredWindowHandsOverItsHighestNumberAndAcceptsNothingAndOnlyAnIdleOneRetires() {
        ReplayWindow window = new ReplayWindow(0);
        window.accept(7);
        AtomicLong kept = new AtomicLong(-1);

        assertThat(window.retireIfIdle(Duration.ofHours(1).toNanos(), kept::set)).as("used just now").isFalse();
        assertThat(window.retireIfIdle(0, kept::set)).isTrue();
        assertThat(kept).hasValue(7);
        assertThat(window.accept(8)).isEqualTo(ReplayWindow.Verdict.RETIRED);
    }

    @Test
    void aStreamForgottenWhileItsSenderWasAwayContinuesAboveWhatItHadAccepted() throws Exception {
        FrameSeal quickToForget = new FrameSeal(new byte[32], Duration.ofMillis(1), now::get);
        List<byte[]> accepted = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            byte[] message = sender.seal(PAYLOAD, A, B, false);
            assertThat(open(quickToForget, message, A, B)).isEqualTo(PAYLOAD.length);
            accepted.add(message);
        }
        Thread.sleep(5); // quiet for more than twice the skew
        quickToForget.forgetSendersOtherThan(List.of(B)); // A left the view

        assertThat(open(quickToForget, sender.seal(PAYLOAD, A, B, false), A, B)).as("A is back").isEqualTo(PAYLOAD.length);
        for (byte[] replay : accepted) {
            assertThatThrownBy(() -> open(quickToForget, replay, A, B)).hasMessageContaining("older than");
        }
    }

    @Test
    void theToAllStreamStartsAtTheMarkOfTheSendersFirstMessageHereNotALaterOneThatOvertookAMessageToAll()
            throws Exception {
        byte[] hello = sender.seal(PAYLOAD, A, B, true);
        byte[] toAll = toAll();
        byte[] copy = sender.seal(PAYLOAD, A, B, false); // its mark counts the message to all above

        assertThat(open(receiver, hello, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(open(receiver, copy, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(open(receiver, toAll, A, B)).as("overtaken by the copy, still needed").isEqualTo(PAYLOAD.length);
    }

    @Test
    void aSenderMetOnceStartsItsLaterStreamsWithoutALookAtTheClock() throws Exception {
        assertThat(open(receiver, sender.seal(PAYLOAD, A, B, false), A, B)).isEqualTo(PAYLOAD.length);
        now.addAndGet(Duration.ofMinutes(6).toMillis()); // the receiver's clock steps

        now.addAndGet(-Duration.ofMinutes(6).toMillis());
        byte[] urgent = sender.seal(PAYLOAD, A, B, true);
        byte[] toAll = toAll();
        now.addAndGet(Duration.ofMinutes(6).toMillis());
        assertThat(open(receiver, urgent, A, B)).as("a new stream of a sender met before").isEqualTo(PAYLOAD.length);
        assertThat(open(receiver, toAll, A, B)).isEqualTo(PAYLOAD.length);
    }

    @Test
    void anOffsetRegionOpensLikeAWholeArray() throws Exception {
        byte[] message = sender.seal(PAYLOAD, A, B, false);
        byte[] inLargerBuffer = new byte[message.length + 7];
        System.arraycopy(message, 0, inLargerBuffer, 3, message.length);

        assertThat(receiver.open(inLargerBuffer, 3, message.length, A, B)).isEqualTo(PAYLOAD.length);
        assertThat(Arrays.copyOfRange(inLargerBuffer, 3, 3 + PAYLOAD.length)).isEqualTo(PAYLOAD);
    }

    private static int open(FrameSeal seal, byte[] message, byte[] from, byte[] self) throws MalformedMessageException {
        return seal.open(message, 0, message.length, from, self);
    }

    /** A message to all from A, handed to the transport at once. */
    private byte[] toAll() {
        return sender.sealToAll(PAYLOAD, A, sealed -> sealed);
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
