package io.cohort.replication.database;

import java.time.Duration;

/**
 * The moment by which one database transaction of the session store (a write, or a load with its claim) must have ended. Every bound
 * the transaction hands to JDBC is derived from what is left of it: the wait for a pooled connection,
 * each statement's query timeout and the connection's network timeout, so the transaction as a whole,
 * commit included, cannot outlast its budget by more than {@link #NETWORK_GRACE}. Immutable.
 */
final class TransactionDeadline {

    /**
     * How much longer than the budget a socket read may block. A statement that runs too long is cancelled by its
     * query timeout first, which keeps the connection; only a database that stops answering altogether (a
     * partition, a stopped host) reaches the network timeout, which closes the connection.
     */
    static final Duration NETWORK_GRACE = Duration.ofSeconds(1);

    private final Duration budget;
    private final long endNanos;

    private TransactionDeadline(Duration budget, long endNanos) {
        this.budget = budget;
        this.endNanos = endNanos;
    }

    /** A deadline {@code budget} from now. */
    static TransactionDeadline after(Duration budget) {
        if (budget.isNegative() || budget.isZero()) {
            throw new IllegalArgumentException("a transaction's budget must be positive: " + budget);
        }
        return new TransactionDeadline(budget, System.nanoTime() + budget.toNanos());
    }

    /** The budget the deadline was set with. */
    Duration budget() {
        return budget;
    }

    boolean passed() {
        return System.nanoTime() - endNanos >= 0;
    }

    /** What is left, in milliseconds, at least 1. */
    long remainingMillis() {
        return Math.max(1, (endNanos - System.nanoTime() + 999_999) / 1_000_000);
    }

    /** A JDBC query timeout for a statement started now: what is left, in whole seconds rounded up, at least 1. */
    int querySeconds() {
        return (int) Math.min(Integer.MAX_VALUE, (remainingMillis() + 999) / 1000);
    }

    /** A JDBC network timeout for the rest of the transaction: what is left plus {@link #NETWORK_GRACE}. */
    int networkTimeoutMillis() {
        return (int) Math.min(Integer.MAX_VALUE, remainingMillis() + NETWORK_GRACE.toMillis());
    }

    @Override
    public String toString() {
        return "TransactionDeadline[" + budget + ", " + (passed() ? "passed" : remainingMillis() + " ms left") + "]";
    }
}
