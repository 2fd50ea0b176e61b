package io.cohort.replication.wire;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Authenticates what a secured group's members send each other, message by message, so that a member without the
 * cluster secret can neither forge a message nor replay one it captured. Each message's payload (a frame or a
 * bundle of frames) gets a trailer
 * <pre>
 *   scope (1: to one member, 2: to all) | sequence (8) | sent at, epoch ms (8) | seal (16)
 * </pre>
 * where the seal is a truncated HMAC-SHA256, keyed by a key derived from the cluster secret, over the payload, the
 * trailer's fields, the sender's identity and, for a message to one member, that member's identity (JGroups
 * addresses: random for every start of a member). A receiver refuses a message whose seal does not verify, one sent
 * to another member (or to an earlier start of itself), one whose sending time is more than the allowed clock skew
 * away from its own clock, and one whose sequence number it has accepted from that sender before or that is too old
 * to tell ({@link ReplayWindow}). What remains replayable is a message to all members, sent within the clock skew,
 * to a member that has not yet heard from that sender since it started. Thread-safe.
 */
public final class FrameSeal {

    /** Bytes the trailer adds to each message. */
    public static final int TRAILER = 1 + Long.BYTES + Long.BYTES + 16;
    private static final int SEAL = 16;
    private static final byte TO_ONE = 1;
    private static final byte TO_ALL = 2;
    private static final String ALGORITHM = "HmacSHA256";
    private static final byte[] NOBODY = new byte[0];

    private final SecretKeySpec key;
    private final ThreadLocal<Mac> macs;
    private final AtomicLong sequence = new AtomicLong();
    private final long maxSkewMillis;
    private final LongSupplier clock;
    private final ConcurrentMap<ByteBuffer, ReplayWindow> windows = new ConcurrentHashMap<>();

    /**
     * @param keyBytes at least 32 bytes of key material (a key derived from the secret, not the secret)
     * @param maxSkew  how far a sender's clock may be from the receiver's
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
     * The payload with its trailer, for the member {@code to} or, when {@code to} is null, for every member.
     *
     * @param from the sender's identity (its address, as receivers will see it)
     */
    public byte[] seal(byte[] payload, byte[] from, byte[] to) {
        byte[] sealed = Arrays.copyOf(payload, payload.length + TRAILER);
        ByteBuffer trailer = ByteBuffer.wrap(sealed, payload.length, TRAILER);
        trailer.put(to == null ? TO_ALL : TO_ONE).putLong(sequence.incrementAndGet()).putLong(clock.getAsLong());
        byte[] seal = seal(sealed, 0, payload.length, from, to == null ? NOBODY : to);
        trailer.put(seal);
        return sealed;
    }

    /**
     * Checks a received message and returns the length of its payload (which starts at {@code offset}).
     *
     * @param from the sender's identity, as the transport reports it
     * @param self this member's identity
     * @throws MalformedMessageException if the message is not one a member with the secret sent to this member, now,
     *     for the first time
     */
    public int open(byte[] buffer, int offset, int length, byte[] from, byte[] self) throws MalformedMessageException {
        if (length < TRAILER) {
            throw new MalformedMessageException("message of " + length + " bytes has no seal (sender lacks the cluster secret?)");
        }
        int payload = length - TRAILER;
        ByteBuffer trailer = ByteBuffer.wrap(buffer, offset + payload, TRAILER);
        byte scope = trailer.get();
        long number = trailer.getLong();
        long sentAt = trailer.getLong();
        if (scope != TO_ONE && scope != TO_ALL) {
            throw new MalformedMessageException("message seal of unknown scope " + scope);
        }
        byte[] expected = seal(buffer, offset, payload, from, scope == TO_ALL ? NOBODY : self);
        byte[] actual = Arrays.copyOfRange(buffer, offset + length - SEAL, offset + length);
        if (!MessageDigest.isEqual(expected, actual)) {
            throw new MalformedMessageException("message seal does not verify (sender lacks the cluster secret, or the "
                    + "message was meant for another member)");
        }
        long skew = Math.abs(clock.getAsLong() - sentAt);
        if (skew > maxSkewMillis) {
            throw new MalformedMessageException("message sent " + skew + " ms from this member's time, more than the "
                    + "allowed clock skew of " + maxSkewMillis + " ms (a replay, or clocks out of step)");
        }
        ByteBuffer sender = ByteBuffer.wrap(from.clone());
        ReplayWindow window = windows.get(sender);
        if (window == null) {
            ReplayWindow first = new ReplayWindow(number);
            window = windows.putIfAbsent(sender, first);
            if (window == null) {
                return payload;
            }
        }
        if (!window.accept(number)) {
            throw new MalformedMessageException("message number " + number + " was seen before or is too old (a replay)");
        }
        return payload;
    }

    /** Forgets the senders not heard from for twice the clock skew: their messages are refused as too old anyway. */
    public void forgetQuietSenders() {
        long idle = System.nanoTime() - Duration.ofMillis(2 * maxSkewMillis).toNanos();
        windows.values().removeIf(window -> window.lastUsedNanos() - idle < 0);
    }

    private byte[] seal(byte[] buffer, int offset, int payload, byte[] from, byte[] to) {
        Mac mac = macs.get();
        mac.update(buffer, offset, payload + 1 + Long.BYTES + Long.BYTES);
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
