package io.cohort.replication.group;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashSet;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The nonces of the join tokens a member accepted, each remembered until its token has expired (its
 * timestamp plus the allowed clock skew), so a token is accepted once: a second use of a nonce within its
 * lifetime is a replay. Only tokens whose HMAC checked out are recorded, so the memory holds genuine joins
 * only; it is capped at {@link #CAPACITY} live entries, beyond which new tokens are refused until old ones
 * expire (that many joins within two clock skews is no cluster's normal life). Thread-safe.
 */
final class AcceptedNonces {

    /** Live entries at most. */
    static final int CAPACITY = 65_536;

    private final long lifetimeMillis;
    private final LongSupplier clock;
    private final Set<ByteBuffer> live = new HashSet<>();
    private final PriorityQueue<Expiry> byExpiry = new PriorityQueue<>();

    AcceptedNonces(Duration skew) {
        this(skew, System::currentTimeMillis);
    }

    AcceptedNonces(Duration skew, LongSupplier clockMillis) {
        this.lifetimeMillis = skew.toMillis();
        this.clock = clockMillis;
    }

    /**
     * Records a token's nonce.
     *
     * @param nonce     the token's nonce (copied)
     * @param timestamp the token's timestamp, in epoch milliseconds
     * @return whether this is the nonce's first use within its lifetime (false: a replay, or the memory is full)
     */
    synchronized boolean firstUse(byte[] nonce, long timestamp) {
        long now = clock.getAsLong();
        while (!byExpiry.isEmpty() && byExpiry.peek().at() < now) {
            live.remove(byExpiry.poll().nonce());
        }
        ByteBuffer key = ByteBuffer.wrap(nonce.clone());
        if (live.size() >= CAPACITY || !live.add(key)) {
            return false;
        }
        byExpiry.add(new Expiry(timestamp + lifetimeMillis, key));
        return true;
    }

    synchronized int size() {
        return live.size();
    }

    private record Expiry(long at, ByteBuffer nonce) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry other) {
            return Long.compare(at, other.at);
        }
    }
}
