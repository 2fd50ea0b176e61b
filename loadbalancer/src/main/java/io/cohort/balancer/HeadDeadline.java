package io.cohort.balancer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.CyclicTimeout;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The deadline for the next request head on one client connection. {@link #arm()} starts it (at the
 * connection's opening and at the end of each answer), {@link #disarm()} ends it (when a head is
 * complete). If it passes while armed and the client has sent bytes since it was armed (a head begun
 * but not finished), {@code onExpired} runs once. If the client sent nothing, the connection is merely
 * idle between requests: the deadline starts again and the idle timeout decides how long the
 * connection stays, so a head that begins late gets at most twice the timeout. Re-arming is cheap
 * ({@link CyclicTimeout}), so every request may do it; after {@link #destroy()} nothing re-arms it.
 */
final class HeadDeadline extends CyclicTimeout {

    private final long timeoutNanos;
    private final LongSupplier bytesIn;
    private final Runnable onExpired;
    // guarded by this: an expiry's look at the state and its re-arming must not interleave with a head's disarm
    private boolean armed;
    private boolean destroyed;
    private long bytesInWhenArmed;

    /**
     * @param scheduler where the deadline runs
     * @param timeout   how long a head may take
     * @param bytesIn   the connection's count of bytes received so far
     * @param onExpired called on the scheduler's thread when an armed deadline passes with a head begun
     */
    HeadDeadline(Scheduler scheduler, Duration timeout, LongSupplier bytesIn, Runnable onExpired) {
        super(scheduler);
        this.timeoutNanos = timeout.toNanos();
        this.bytesIn = bytesIn;
        this.onExpired = onExpired;
    }

    /** Starts the deadline for the next head, replacing any running one. */
    synchronized void arm() {
        if (destroyed) {
            return;
        }
        bytesInWhenArmed = bytesIn.getAsLong();
        armed = true;
        schedule(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    /** Ends the running deadline, if any: a head arrived in time. */
    synchronized void disarm() {
        armed = false;
        cancel();
    }

    @Override
    public void onTimeoutExpired() {
        synchronized (this) {
            if (!armed || destroyed) {
                return;
            }
            if (bytesIn.getAsLong() == bytesInWhenArmed) {
                arm(); // idle between requests, not slow: the idle timeout governs
                return;
            }
            armed = false;
        }
        onExpired.run();
    }

    @Override
    public void destroy() {
        synchronized (this) {
            destroyed = true;
            armed = false;
        }
        super.destroy();
    }
}
