package io.cohort.replication.group;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, polling; fails with a message naming the condition. */
public final class Await {

    private Await() {
    }

    public static void until(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + limit + " waiting until " + what);
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting until " + what);
            }
        }
    }

    /**
     * Waits at most {@code limit} for {@code condition} and says whether it came true, for a test that asserts what
     * follows either way (e.g. what a lookup finds once a repair had its chance).
     */
    public static boolean within(Duration limit, BooleanSupplier condition) {
        try {
            until("a condition", limit, condition);
            return true;
        } catch (AssertionError e) {
            return false;
        }
    }

    public static void until(String what, BooleanSupplier condition) {
        until(what, Duration.ofSeconds(20), condition);
    }
}
