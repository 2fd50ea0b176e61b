package io.cohort.replication.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.Acknowledgement;
import io.cohort.replication.wire.ReplicationMessage.FullCopyRequest;
import io.cohort.replication.wire.ReplicationMessage.Hello;
import io.cohort.replication.wire.ReplicationMessage.Lookup;
import io.cohort.replication.wire.ReplicationMessage.LookupReply;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionRemoved;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.SharedRemoval;
import io.cohort.replication.wire.ReplicationMessage.TakenOver;
import io.cohort.replication.wire.ReplicationMessage.Touch;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.net.URI;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MessageCodecTest {

    private static final Instant T = Instant.parse("2026-11-21T10:15:30.123Z");
    private static final String ID = "4d1f0c2a9b8e4f6a8c7d5e3f2a1b0c9d"; // 32 characters, like Jetty's ids

    private final MessageCodec codec = new MessageCodec(WireLimits.DEFAULT);

    @Test
    void everyMessageTypeSurvivesTheRoundTrip() throws Exception {
        StoredSession stored = new StoredSession(ID, 7, T, T.plusSeconds(5), 1_800_000,
                Map.of("cart", new byte[] {1, 2, 3}, "user", "j2ee".getBytes()));
        List<ReplicationMessage> messages = List.of(
                new Hello(new Member("n1", "n1", "blade1", URI.create("http://127.0.0.1:8081"), URI.create("http://127.0.0.1:9091"))),
                new SessionUpdate("shop", 42, delta()),
                new SessionUpdate("shop", 0, SessionChange.full(stored)),
                new SessionRemoved("shop", 12, ID, RemovalCause.EXPIRED),
                new ReleaseCopy("shop", ID, 9),
                new Touch("shop", ID, 9, T),
                new Acknowledgement(Long.MAX_VALUE),
                new FullCopyRequest("shop", ID, 3),
                new Lookup("shop", ID, 5),
                new LookupReply(5, Optional.empty()),
                new LookupReply(6, Optional.of(stored)),
                new TakenOver("shop", ID, 7, List.of("n2", "n3")),
                new MissedRemovals("shop", List.of(new MissedRemovals.Removed(ID, 7),
                        new MissedRemovals.Removed(ID + "-old", Long.MAX_VALUE))),
                new SharedRemoval("shop", new MissedRemovals.Removed(ID, 7), T),
                new SharedRemoval("shop", new MissedRemovals.Removed(ID, Long.MAX_VALUE), SharedRemoval.FOR_GOOD));

        for (ReplicationMessage message : messages) {
            ReplicationMessage decoded = codec.decode(codec.encode(message));
            assertThat(describe(decoded)).as(message.getClass().getSimpleName()).isEqualTo(describe(message));
        }
    }

    @Test
    void framingOfAOneKilobyteChangeCostsLessThanTenPercent() {
        byte[] value = new byte[1024];
        SessionChange change = new SessionChange(ID, 12, ChangeKind.DELTA, T, T.plusSeconds(60), 1_800_000,
                Map.of("cart", value), Set.of());

        int frame = codec.encode(new SessionUpdate("jpetstore", 0, change)).length;

        assertThat(frame - value.length).as("framing bytes").isLessThanOrEqualTo(value.length / 10);
    }

    @Test
    void everyTruncationIsRejectedAsMalformed() {
        byte[] frame = codec.encode(new SessionUpdate("shop", 42, delta()));
        for (int length = 0; length < frame.length; length++) {
            int cut = length;
            assertThatThrownBy(() -> codec.decode(frame, 0, cut)).isInstanceOf(MalformedMessageException.class);
        }
    }

    @Test
    void randomCorruptionNeverEscapesAsAnythingButMalformed() {
        byte[] original = codec.encode(new LookupReply(9, Optional.of(new StoredSession(ID, 3, T, T, 60_000,
                Map.of("a", new byte[64], "b", new byte[16])))));
        Random random = new Random(7);
        for (int round = 0; round < 20_000; round++) {
            byte[] mutated = Arrays.copyOf(original, original.length);
            for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
            }
            try {
                codec.decode(mutated);
            } catch (MalformedMessageException expected) {
                // fine
            } catch (RuntimeException | OutOfMemoryError e) {
                fail("corrupted frame escaped as " + e, e);
            }
        }
    }

    @Test
    void aCountOrLengthThatDecodesNegativeIsRejectedAsMalformed() {
        byte[] minusOne = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF,
                (byte) 0xFF, (byte) 0xFF, 0x01}; // a ten-byte varint of 2^64 - 1, -1 as a long
        byte[] ack = codec.encode(new Acknowledgement(1));
        // every position where a varint may start: the count or length read there decodes to -1
        for (int at = 3; at < ack.length; at++) {
            byte[] frame = new byte[at + minusOne.length + 8];
            System.arraycopy(ack, 0, frame, 0, at);
            System.arraycopy(minusOne, 0, frame, at, minusOne.length);
            assertThatThrownBy(() -> codec.decode(frame)).isInstanceOf(MalformedMessageException.class);
        }
        byte[] update = codec.encode(new SessionUpdate("shop", 42, delta()));
        for (int at = 3; at < update.length; at++) {
            byte[] frame = Arrays.copyOf(update, update.length + minusOne.length);
            System.arraycopy(minusOne, 0, frame, at, minusOne.length);
            System.arraycopy(update, at, frame, at + minusOne.length, update.length - at);
            try {
                codec.decode(frame);
            } catch (MalformedMessageException expected) {
                // fine
            } catch (RuntimeException e) {
                fail("a negative count at byte " + at + " escaped as " + e, e);
            }
        }
    }

    @Test
    void lengthsBeyondTheLimitsOrTheFrameAreRejectedBeforeAllocating() {
        MessageCodec strict = new MessageCodec(new WireLimits(64, 1024, 10, 5));
        byte[] bigValue = codec.encode(new SessionUpdate("shop", 0, new SessionChange(ID, 1, ChangeKind.FULL, T, T, 0,
                Map.of("v", new byte[2048]), Set.of())));
        byte[] claimsHugeString = {(byte) 0xC7, 2, 2, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};

        assertThatThrownBy(() -> strict.decode(bigValue)).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("exceeds the limit");
        assertThatThrownBy(() -> codec.decode(claimsHugeString)).isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void missedRemovalsBeyondTheLimitOrNoneAtAllAreRejected() {
        byte[] one = codec.encode(new MissedRemovals("shop", List.of(new MissedRemovals.Removed(ID, 1))));
        int countAt = 3 + 1 + "shop".length(); // header, the name's length and the name
        assertThat(one[countAt]).as("the count's byte").isEqualTo((byte) 1);
        byte[] none = Arrays.copyOf(one, countAt + 1);
        none[countAt] = 0;
        byte[] limit = new byte[one.length + 1];
        System.arraycopy(one, 0, limit, 0, countAt);
        limit[countAt] = (byte) 0x81;
        limit[countAt + 1] = 0x04; // 1 + 4 * 128 = 513
        System.arraycopy(one, countAt + 1, limit, countAt + 2, one.length - countAt - 1);

        assertThatThrownBy(() -> codec.decode(none)).isInstanceOf(MalformedMessageException.class);
        assertThatThrownBy(() -> codec.decode(limit)).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("exceeds the limit " + MissedRemovals.MAX_REMOVALS);
    }

    @Test
    void aSharedRemovalKeptForGoodIsTheLatestInstantTheWireCarries() throws Exception {
        SharedRemoval forGood = new SharedRemoval("shop", new MissedRemovals.Removed(ID, 3), Instant.MAX);

        assertThat(forGood.keepUntil()).isEqualTo(SharedRemoval.FOR_GOOD);
        assertThat(((SharedRemoval) codec.decode(codec.encode(forGood))).keepUntil()).isEqualTo(SharedRemoval.FOR_GOOD);
    }

    @Test
    void theExtremesOfSignedValuesSurviveTheRoundTrip() throws Exception {
        Touch latest = new Touch("shop", ID, 4, Instant.ofEpochMilli(Long.MAX_VALUE)); // as a member may send it
        SessionChange earliest = new SessionChange(ID, 5, ChangeKind.DELTA, Instant.ofEpochMilli(Long.MIN_VALUE), T,
                Long.MIN_VALUE, Map.of(), Set.of());

        assertThat(codec.decode(codec.encode(latest))).isEqualTo(latest);
        SessionChange back = ((SessionUpdate) codec.decode(codec.encode(new SessionUpdate("shop", 1, earliest)))).change();
        assertThat(back.created()).isEqualTo(earliest.created());
        assertThat(back.maxInactiveMillis()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void unknownTypesFormatsAndTrailingBytesAreRejected() {
        byte[] ack = codec.encode(new Acknowledgement(1));
        byte[] trailing = Arrays.copyOf(ack, ack.length + 1);
        byte[] otherFormat = ack.clone();
        otherFormat[1] = 1; // an earlier build's format
        byte[] unknownType = ack.clone();
        unknownType[2] = 77;

        for (byte[] frame : List.of(trailing, otherFormat, unknownType, new byte[] {1, 2, 3})) {
            assertThatThrownBy(() -> codec.decode(frame)).isInstanceOf(MalformedMessageException.class);
        }
    }

    private static SessionChange delta() {
        return new SessionChange(ID, 8, ChangeKind.DELTA, T, T.plusSeconds(1), -1,
                Map.of("cart", new byte[] {9, 8, 7}), Set.of("search", "item"));
    }

    /** Records holding byte arrays do not compare by content: compare a rendering. */
    private static String describe(ReplicationMessage message) {
        if (message instanceof SessionUpdate u) {
            return "update " + u.application() + " " + u.correlation() + " " + describe(u.change());
        }
        if (message instanceof LookupReply r) {
            return "reply " + r.correlation() + " " + r.copy().map(s -> describe(SessionChange.full(s))).orElse("none");
        }
        return message.toString();
    }

    private static String describe(SessionChange c) {
        StringBuilder s = new StringBuilder(c.id() + " v" + c.version() + " " + c.kind() + " " + c.created() + " "
                + c.lastAccessed() + " " + c.maxInactiveMillis() + " removed=" + new java.util.TreeSet<>(c.removed()));
        new java.util.TreeMap<>(c.values()).forEach((k, v) -> s.append(' ').append(k).append('=').append(Arrays.toString(v)));
        return s.toString();
    }
}
