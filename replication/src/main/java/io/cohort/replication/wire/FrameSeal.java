package io.cohort.replication.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.NavigableSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticates what a secured group's members send each other, message by message, so that a member without the
 * cluster secret can neither forge a message nor replay one it captured. Each message's payload (a frame or a bundle
 * of frames) gets a trailer
 * <pre>
 *   stream (1) | sequence (8) | sent at, epoch ms (8) | to-all mark (8) | seal (16)
 * </pre>
 * The stream is one of: to one member, to one member urgent (answers that overtake the regular messages), to all.
 * A sender numbers each stream on its own, a stream to one member per receiver (JGroups addresses are random for every
 * start of a member), so a receiver sees each stream's numbers nearly in order. The to-all mark, in every message to one
 * member, is the last number the sender had given a message to all already handed to the transport when that member
 * entered its view ({@link #view}); for a member it has not seen in a view yet, that number now. The seal is a truncated HMAC-SHA256, keyed
 * by a key derived from the cluster secret, over the payload, the trailer's fields, the sender's identity and, for a
 * stream to one member, the receiver's.
 *
 * <p>A receiver refuses a message whose seal does not verify, one meant for another member (or an earlier start of
 * itself), and one whose number it accepted before or that is older than its {@link ReplayWindow}. The first message
 * it receives from a sender must be fresh (sent within the clock skew of the receiver's clock); later ones, in any
 * stream of that sender, need not be, so a clock that steps after the members met does not stop replication. A regular
 * stream to one member starts a little below its first number seen ({@value #STREAM_START_MARGIN}); an urgent one
 * anywhere in the window below it, since out-of-band messages are delivered as they come and a lost one comes back
 * after the transport's retransmission delay (every number of a stream to one member was meant for this very start of
 * this member, so a number not accepted yet is no replay). A stream to all starts at the to-all mark of the first
 * message the sender wrote to this member: a message to all numbered at or below it (handed to the transport before
 * this member entered the sender's view) is refused unless the sender sealed it less than {@link #TO_ALL_GRACE}
 * before that first message (the view reaches the transport a moment before the sender marks it), so a member that
 * just joined cannot be fed a backlog of captured ones. A message to all still on its way into the transport when
 * the sender marks a member (waiting for flow-control credits, say) is numbered above the mark, however long ago it
 * was sealed: nobody can have captured it yet; one that arrives before the sender's first message to this member is refused with
 * {@link ToAllBeforeMarkException}, for the caller to hold. A
 * stream's window is forgotten when its sender has left the view and stayed quiet for twice the clock skew; its
 * highest number is kept, and a stream met again starts above it, so nothing accepted before can be accepted again.
 * Identities passed in are kept as they are: callers hand over arrays they do not change afterwards. Thread-safe.
 */
public final class FrameSeal {

    /** Bytes the trailer adds to each message. */
    public static final int TRAILER = 1 + Long.BYTES * 3 + 16;
    private static final int SEAL = 16;
    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] NOBODY = new byte[0];
    /**
     * How far below a stream's first number seen here a message to one member may still arrive: the numbers are given
     * before the message enters JGroups, so threads sending to the same member at once can hand their messages over in
     * another order.
     */
    static final int STREAM_START_MARGIN = 64;
    /**
     * How long before its first message to a member the sender may have sent a message to all numbered at or below
     * the member's to-all mark, for the member to accept it (see {@code checkSentAfterJoining}).
     */
    static final Duration TO_ALL_GRACE = Duration.ofSeconds(2);

    /** The streams a sender numbers on their own; the code is the trailer's first byte. */
    private enum Stream {
        TO_ONE(1), TO_ALL(2), TO_ONE_URGENT(3);

        final byte code;

        Stream(int code) {
            this.code = (byte) code;
        }

        static Stream of(byte code) throws MalformedMessageException {
            for (Stream stream : values()) {
                if (stream.code == code) {
                    return stream;
                }
            }
            throw new MalformedMessageException("message seal of unknown stream " + code);
        }
    }

    private record StreamKey(ByteBuffer member, Stream stream) {
    }

    /** Where a sender's stream to all starts here: its to-all mark, and when it sent its first message to this member. */
    private record ToAllStart(long mark, long greetedAt) {
    }

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;
    private final long maxSkewMillis;
    private final LongSupplier clock;
    /** Guards giving numbers to messages to all together with {@link #toAllInTransit}. */
    private final Object toAllNumbering = new Object();
    private final AtomicLong toAll = new AtomicLong();
    /** The numbers of messages to all sealed and not yet handed to the transport ({@link #sealToAll}). */
    private final NavigableSet<Long> toAllInTransit = new ConcurrentSkipListSet<>();
    /** Per member of the view, the last number given a message to all when it entered the view: its to-all mark. */
    private final ConcurrentMap<ByteBuffer, Long> toAllMarks = new ConcurrentHashMap<>();
    private final ConcurrentMap<StreamKey, AtomicLong> toOne = new ConcurrentHashMap<>();
    private final ConcurrentMap<StreamKey, ReplayWindow> windows = new ConcurrentHashMap<>();
    /** The highest number of each forgotten stream: where it starts if met again. */
    private final ConcurrentMap<StreamKey, Long> forgottenHighest = new ConcurrentHashMap<>();
    /** Per sender, the to-all mark of the first message it wrote to this member and when it sent it (its clock). */
    private final ConcurrentMap<ByteBuffer, ToAllStart> toAllStarts = new ConcurrentHashMap<>();
    /** The senders a fresh message came from: their later streams start without a look at the clock. */
    private final Set<ByteBuffer> met = ConcurrentHashMap.newKeySet();

    /**
     * @param keyBytes at least 32 bytes of key material (a key derived from the secret, not the secret)
     * @param maxSkew  how far the sending time of a stream's first message may be from the receiver's clock
     * @param clock    the current time in epoch milliseconds
     */
    public FrameSeal(byte[] keyBytes, Duration maxSkew, LongSupplier clock) {
        if (keyBytes.length < 32) {
            throw new IllegalArgumentException("a seal key needs at least 32 bytes");
        }
        this.key = new SecretKeySpec(keyBytes.clone(), ALGORITHM);
        this.macs = ThreadLocal.withInitial(this::newMac);
        this.maxSkewMillis = maxSkew.toMillis();
        this.clock = clock;
        newMac(); // fail at construction, not at the first message
    }

    /**
     * The payload with its trailer, for the member {@code to}.
     *
     * @param from   the sender's identity (its address, as receivers will see it)
     * @param urgent whether the message may overtake the regular ones to the same member (JGroups out-of-band)
     */
    public byte[] seal(byte[] payload, byte[] from, byte[] to, boolean urgent) {
        Stream stream = urgent ? Stream.TO_ONE_URGENT : Stream.TO_ONE;
        long number = toOne.computeIfAbsent(new StreamKey(ByteBuffer.wrap(to), stream), k -> new AtomicLong())
                .incrementAndGet();
        long mark = toAllMarks.getOrDefault(ByteBuffer.wrap(to), toAllMarkNow());
        return sealed(payload, stream, number, mark, from, to);
    }

    /**
     * Seals the payload for every member and passes it to {@code transmit}, which hands it to the transport; until
     * {@code transmit} returns, a member that enters the view gets a to-all mark below this message's number, so it
     * accepts the message however long the transport kept the caller waiting.
     *
     * @param from the sender's identity (its address, as receivers will see it)
     * @return what {@code transmit} returned
     */
    public <T> T sealToAll(byte[] payload, byte[] from, Function<byte[], T> transmit) {
        long number;
        synchronized (toAllNumbering) {
            number = toAll.incrementAndGet();
            toAllInTransit.add(number);
        }
        try {
            return transmit.apply(sealed(payload, Stream.TO_ALL, number, number, from, NOBODY));
        } finally {
            toAllInTransit.remove(number);
        }
    }

    /** The mark a member entering the view now gets: the last number given a message to all already handed over. */
    private long toAllMarkNow() {
        synchronized (toAllNumbering) {
            Long lowestInTransit = toAllInTransit.ceiling(0L);
            return lowestInTransit == null ? toAll.get() : lowestInTransit - 1;
        }
    }

    private byte[] sealed(byte[] payload, Stream stream, long number, long mark, byte[] from, byte[] to) {
        byte[] sealed = Arrays.copyOf(payload, payload.length + TRAILER);
        ByteBuffer trailer = ByteBuffer.wrap(sealed, payload.length, TRAILER);
        trailer.put(stream.code).putLong(number).putLong(clock.getAsLong()).putLong(mark);
        trailer.put(seal(sealed, 0, payload.length, from, to));
        return sealed;
    }

    /**
     * Checks a received message and returns the length of its payload (which starts at {@code offset}).
     *
     * @param from the sender's identity, as the transport reports it
     * @param self this member's identity
     * @throws MalformedMessageException if the message is not one a member with the secret sent to this member and
     *     this member has not accepted before
     */
    public int open(byte[] buffer, int offset, int length, byte[] from, byte[] self) throws MalformedMessageException {
        if (length < TRAILER) {
            throw new MalformedMessageException("message of " + length + " bytes has no seal (sender lacks the cluster secret?)");
        }
        int payload = length - TRAILER;
        ByteBuffer trailer = ByteBuffer.wrap(buffer, offset + payload, TRAILER);
        Stream stream = Stream.of(trailer.get());
        long number = trailer.getLong();
        long sentAt = trailer.getLong();
        long toAllMark = trailer.getLong();
        if (!sealMatches(buffer, offset, length, from, stream == Stream.TO_ALL ? NOBODY : self)) {
            throw new MalformedMessageException("message seal does not verify (sender lacks the cluster secret, or the "
                    + "message was meant for another member)");
        }
        ByteBuffer sender = ByteBuffer.wrap(from);
        StreamKey key = new StreamKey(sender, stream);
        if (stream == Stream.TO_ALL) {
            checkSentAfterJoining(sender, number, sentAt);
        }
        while (true) {
            ReplayWindow window = windows.get(key);
            if (window == null) {
                window = startStream(key, sentAt, number);
            }
            switch (window.accept(number)) {
                case ACCEPTED:
                    if (stream != Stream.TO_ALL) {
                        toAllStarts.putIfAbsent(sender, new ToAllStart(toAllMark, sentAt));
                    }
                    return payload;
                case SEEN_BEFORE:
                    throw new MalformedMessageException("replayed message: number " + number + " of this sender's stream "
                            + stream + " was accepted before");
                case TOO_OLD:
                    throw new MalformedMessageException("message too old to tell from a replay: number " + number
                            + " of this sender's stream " + stream + " is older than this member's window");
                case RETIRED:
                    windows.remove(key, window);
                    break;
                default:
                    throw new IllegalStateException();
            }
        }
    }

    private ReplayWindow startStream(StreamKey key, long sentAt, long number) throws MalformedMessageException {
        Long forgotten = forgottenHighest.get(key);
        if (forgotten == null && !met.contains(key.member())) {
            long skew = Math.abs(clock.getAsLong() - sentAt);
            if (skew > maxSkewMillis) {
                return startedMeanwhile(key, "first message from this sender sent " + skew + " ms from this member's "
                        + "time, more than the allowed clock skew of " + maxSkewMillis + " ms (a replay, or clocks out of step)");
            }
        }
        // an urgent stream may start anywhere in its window; what a stream to all had before this member joined is
        // refused by checkSentAfterJoining
        long floor = key.stream() == Stream.TO_ONE ? Math.max(0, number - STREAM_START_MARGIN) : 0;
        if (forgotten != null) {
            floor = Math.max(floor, forgotten);
        }
        met.add(key.member());
        ReplayWindow started = new ReplayWindow(floor);
        ReplayWindow raced = windows.putIfAbsent(key, started);
        return raced != null ? raced : started;
    }

    /**
     * A message to all numbered at or below the to-all mark was numbered before the sender's view listed this member;
     * it is accepted only if the sender sent it at most {@link #TO_ALL_GRACE} before its first message to this member
     * (both times by the sender's clock): the view reaches the transport before the sender marks it, so in between a
     * message to all can reach this member with a number at or below its mark. Earlier ones are a backlog from before
     * this member joined, which a replay could feed it.
     */
    private void checkSentAfterJoining(ByteBuffer sender, long number, long sentAt) throws MalformedMessageException {
        ToAllStart start = toAllStarts.get(sender);
        if (start == null) {
            throw new ToAllBeforeMarkException();
        }
        if (number <= start.mark() && sentAt < start.greetedAt() - TO_ALL_GRACE.toMillis()) {
            throw new MalformedMessageException("message to all sent before this member joined: number " + number
                    + " of this sender's stream TO_ALL is at or below its mark and was sent "
                    + (start.greetedAt() - sentAt) + " ms before the sender's first message to this member");
        }
    }

    /** The window another thread started for this stream meanwhile; if none, the message is refused for {@code why}. */
    private ReplayWindow startedMeanwhile(StreamKey key, String why) throws MalformedMessageException {
        ReplayWindow window = windows.get(key);
        if (window == null) {
            throw new MalformedMessageException(why);
        }
        return window;
    }

    /**
     * The view changed to {@code members}: a member new to it gets, as its to-all mark, the last number given a message
     * to all already handed to the transport, so it accepts every message to all numbered after it entered the view; the marks of members that
     * left are dropped, and the streams of senders that left are forgotten once quiet ({@link #forgetSendersOtherThan}).
     * Call it before sending anything to the members that joined.
     */
    public void view(Collection<byte[]> members) {
        Set<ByteBuffer> present = members.stream().map(ByteBuffer::wrap).collect(Collectors.toSet());
        long mark = toAllMarkNow();
        present.forEach(member -> toAllMarks.putIfAbsent(member, mark));
        toAllMarks.keySet().retainAll(present);
        forgetSendersOtherThan(members);
    }

    /**
     * Forgets the streams of senders that are not {@code members} and were quiet for twice the clock skew, keeping
     * each stream's highest number: a sender that comes back continues above it.
     */
    public void forgetSendersOtherThan(Collection<byte[]> members) {
        Set<ByteBuffer> present = members.stream().map(ByteBuffer::wrap).collect(Collectors.toSet());
        long idleNanos = Duration.ofMillis(2 * maxSkewMillis).toNanos();
        windows.entrySet().removeIf(e -> !present.contains(e.getKey().member()) && e.getValue().retireIfIdle(idleNanos,
                highest -> forgottenHighest.merge(e.getKey(), highest, Math::max)));
    }

    /**
     * Whether a message's seal verifies for sender {@code from} and receiver {@code self}, without looking at its number
     * (nothing is remembered: {@link #open} decides whether it is new).
     */
    public boolean verifies(byte[] buffer, int offset, int length, byte[] from, byte[] self) {
        if (length < TRAILER) {
            return false;
        }
        return sealMatches(buffer, offset, length, from, isToAll(buffer, offset, length) ? NOBODY : self);
    }

    /** Whether the seal at the end of a message of {@code length} ≥ {@link #TRAILER} bytes is the one for these parties. */
    private boolean sealMatches(byte[] buffer, int offset, int length, byte[] from, byte[] to) {
        byte[] expected = seal(buffer, offset, length - TRAILER, from, to);
        return MessageDigest.isEqual(expected, Arrays.copyOfRange(buffer, offset + length - SEAL, offset + length));
    }

    /** Whether a sealed message is one to all (by its trailer's stream; the seal itself is not checked). */
    public static boolean isToAll(byte[] buffer, int offset, int length) {
        return length >= TRAILER && buffer[offset + length - TRAILER] == Stream.TO_ALL.code;
    }

    private byte[] seal(byte[] buffer, int offset, int payload, byte[] from, byte[] to) {
        Mac mac = macs.get();
        mac.update(buffer, offset, payload + TRAILER - SEAL);
        mac.update((byte) from.length);
        mac.update(from);
        mac.update((byte) to.length);
        mac.update(to);
        return Arrays.copyOf(mac.doFinal(), SEAL);
    }

    private Mac newMac() {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }
}
