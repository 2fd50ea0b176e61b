package io.cohort.replication.wire;

/**
 * The sequence numbers one sender's sealed messages have carried, as far as a receiver must remember them to refuse a
 * message seen before. Remembers the highest number accepted and which of the {@value #SIZE} below it were; a number
 * older than that, one at or below the floor set at first contact (the first number seen, less a margin for messages
 * overtaken on the way, such as out-of-band answers), or one already accepted is refused. A sender numbers all its
 * messages in one sequence, whoever they are for, so a receiver sees gaps; they are not losses. Thread-safe.
 */
final class ReplayWindow {

    /** How far behind the highest number accepted a message may still arrive. */
    static final int SIZE = 1 << 16;
    /** How far below the first number seen a message sent before it may still arrive. */
    static final int FIRST_CONTACT_MARGIN = 1 << 10;

    private final long[] seen = new long[SIZE / Long.SIZE];
    private final long floor;
    private long highest;
    private volatile long lastUsedNanos;

    ReplayWindow(long first) {
        this.floor = first - FIRST_CONTACT_MARGIN;
        this.highest = first;
        mark(first);
        lastUsedNanos = System.nanoTime();
    }

    /** Whether {@code sequence} is new; if so it is remembered, and a second call with it answers false. */
    synchronized boolean accept(long sequence) {
        lastUsedNanos = System.nanoTime();
        if (sequence <= floor) {
            return false;
        }
        if (sequence > highest) {
            long advance = sequence - highest;
            if (advance >= SIZE) {
                java.util.Arrays.fill(seen, 0L);
            } else {
                for (long n = highest + 1; n < sequence; n++) {
                    clear(n);
                }
            }
            highest = sequence;
            mark(sequence);
            return true;
        }
        if (highest - sequence >= SIZE || isMarked(sequence)) {
            return false;
        }
        mark(sequence);
        return true;
    }

    /** When a message was last offered ({@link System#nanoTime}). */
    long lastUsedNanos() {
        return lastUsedNanos;
    }

    private void mark(long sequence) {
        int bit = (int) (sequence & (SIZE - 1));
        seen[bit >>> 6] |= 1L << (bit & 63);
    }

    private void clear(long sequence) {
        int bit = (int) (sequence & (SIZE - 1));
        seen[bit >>> 6] &= ~(1L << (bit & 63));
    }

    private boolean isMarked(long sequence) {
        int bit = (int) (sequence & (SIZE - 1));
        return (seen[bit >>> 6] & (1L << (bit & 63))) != 0;
    }
}
