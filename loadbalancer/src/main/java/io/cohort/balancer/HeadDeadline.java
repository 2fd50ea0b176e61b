package io.cohort.balancer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.CyclicTimeout;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The deadline for the next request head on one client connection. {@link #arm()} starts it (at the
 * connection's opening and at the end of each answer), {@link #disarm()} ends it (when a head is
 * complete); if it passes while armed, {@code onExpired} runs once, told whether the client had sent
 * any byte since it was armed (a partial head; otherwise the connection merely sat idle between
 * requests). Re-arming is cheap ({@link CyclicTimeout}), so every request may do it.
 */
final class HeadDeadline extends CyclicTimeout {

    /** What to do when a deadline passes. */
    interface Expiry {
        /** @param partialHead whether bytes arrived since the deadline was armed */
        void expired(boolean partialHead);
    }

    private final long timeoutNanos;
    private final LongSupplier bytesIn;
    private final Expiry onExpired;
    private volatile boolean armed;
    private volatile long bytesInWhenArmed;

    /**
     * @param scheduler where the deadline runs
     * @param timeout   how long a head may take
     * @param bytesIn   the connection's count of bytes received so far
     * @param onExpired called on the scheduler's thread when an armed deadline passes
     */
    HeadDeadline(Scheduler scheduler, Duration timeout, LongSupplier bytesIn, Expiry onExpired) {
        super(scheduler);
        this.timeoutNanos = timeout.toNanos();
        this.bytesIn = bytesIn;
        this.onExpired = onExpired;
    }

    /** Starts the deadline for the next head, replacing any running one. */
    void arm() {
        bytesInWhenArmed = bytesIn.getAsLong();
        armed = true;
        schedule(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Ends the running deadline, if any: a head arrived in time. */
    void disarm() {
        armed = false;
        cancel();
    }

    @Override
    public void onTimeoutExpired() {
        if (armed) {
            armed = false;
            onExpired.expired(bytesIn.getAsLong() != bytesInWhenArmed);
        }
    }
}
