package io.cohort.cli;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Polls a condition until it holds or a deadline passes: for state that another process changes. */
public final class Poll {

    private static final long INTERVAL_MILLIS = 50;

    private Poll() {
    }

    /**
     * Returns as soon as {@code condition} is true; fails with {@code what} after {@code timeout}.
     * An exception from the condition counts as false (the server may not be listening yet).
     */
    public static void until(Duration timeout, String what, Callable<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Exception last = null;
        while (true) {
            try {
                if (condition.call()) {
                    return;
                }
            } catch (Exception e) {
                last = e;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout + ": " + what, last);
            }
            Thread.sleep(INTERVAL_MILLIS);
        }
    }
}
