package io.cohort.balancer;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.eclipse.jetty.io.CyclicTimeout;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The deadline for the next request head on one client connection. {@link #arm()} starts it (at the
 * connection's opening and at the end of each answer), {@link #disarm()} ends it (when a head is
 * complete). If the client sent nothing when it passes, the connection is merely idle between requests:
 * the deadline starts again and the idle timeout decides how long the connection stays. If the client
 * sent bytes since it was armed, a head has begun, at some moment within the timeout that passed (the
 * last byte may have arrived an instant ago, its head not yet parsed): the head gets the timeout once
 * more from now, and if it is still not complete then, {@code onExpired} runs once. So a head gets at
 * least the timeout and at most twice it. Re-arming is cheap ({@link CyclicTimeout}), so every request
 * may do it; after {@link #destroy()} nothing re-arms it.
 */
final class HeadDeadline extends CyclicTimeout {

    private final long timeoutNanos;
    private final LongSupplier bytesIn;
    private final Runnable onExpired;
    // guarded by this: an expiry's look at the state and its re-arming must not interleave with a head's disarm
    private boolean armed;
    /** A deadline passed with a head begun: the next one that passes closes the connection. */
    private boolean headBegun;
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
        headBegun = false;
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
            if (!headBegun) { // begun within the timeout that passed, perhaps an instant ago: a whole timeout from now
                headBegun = true;
                schedule(timeoutNanos, TimeUnit.NANOSECONDS);
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
