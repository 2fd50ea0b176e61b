package io.cohort.replication.wire;

/**
 * The sequence numbers of one stream of sealed messages (one sender, to this member or to all, regular or urgent) as
 * far as a receiver must remember them to refuse a message seen before. Remembers the highest number accepted and which
 * of the {@value #SIZE} below it were; a number at or below the floor (where the stream started for this receiver), one
 * older than the window, or one already accepted is refused. Thread-safe.
 */
final class ReplayWindow {

    /** How far behind the highest number accepted a message may still arrive. */
    static final int SIZE = 1 << 16;

    /** What became of an offered number. */
    enum Verdict {
        ACCEPTED, SEEN_BEFORE, TOO_OLD, RETIRED
    }

    private final long[] seen = new long[SIZE / Long.SIZE];
    private final long floor;
    private long highest;
    private boolean retired;
    private volatile long lastUsedNanos = System.nanoTime();

    /** A window that accepts numbers above {@code floor} (numbers at or below it came before the stream began here). */
    ReplayWindow(long floor) {
        this.floor = floor;
        this.highest = floor;
    }

    /** Whether {@code sequence} is new; if so it is remembered, and a second offer of it is {@link Verdict#SEEN_BEFORE}. */
    synchronized Verdict accept(long sequence) {
        if (retired) {
            return Verdict.RETIRED;
        }
        lastUsedNanos = System.nanoTime();
        if (sequence <= floor) {
            return Verdict.TOO_OLD;
        }
        if (sequence > highest) {
            if (sequence - highest >= SIZE) {
                java.util.Arrays.fill(seen, 0L);
            } else {
                clearBetween(highest + 1, sequence);
            }
            highest = sequence;
            mark(sequence);
            return Verdict.ACCEPTED;
        }
        if (highest - sequence >= SIZE) {
            return Verdict.TOO_OLD;
        }
        if (isMarked(sequence)) {
            return Verdict.SEEN_BEFORE;
        }
        mark(sequence);
        return Verdict.ACCEPTED;
    }

    /**
     * Retires the window if it was not used for {@code idleNanos}: it hands its highest number to {@code keep} and then
     * accepts nothing more (whoever holds it looks the stream up again, and finds the highest number kept). Returns
     * whether it retired.
     */
    synchronized boolean retireIfIdle(long idleNanos, java.util.function.LongConsumer keep) {
        if (!retired && System.nanoTime() - lastUsedNanos >= idleNanos) {
            keep.accept(highest);
            retired = true;
        }
        return retired;
    }

    /** Forgets the numbers from {@code from} (inclusive) to {@code to} (exclusive), a word at a time where it can. */
    private void clearBetween(long from, long to) {
        long n = from;
        while (n < to) {
            int bit = (int) (n & (SIZE - 1));
            if ((bit & 63) == 0 && to - n >= 64) {
                seen[bit >>> 6] = 0L;
                n += 64;
            } else {
                clear(n);
                n++;
            }
        }
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
