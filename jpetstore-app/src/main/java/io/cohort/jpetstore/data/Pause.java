package io.cohort.jpetstore.data;

import java.util.concurrent.ThreadLocalRandom;

/** Waits between attempts at a contended database operation, longer after each attempt, with jitter. */
final class Pause {
    private Pause() {
    }

    static void briefly(int attempt) {
        long millis = Math.min(2_000, 100L * attempt) + ThreadLocalRandom.current().nextLong(100);
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DataAccessException("interrupted while waiting for the database");
        }
    }
}
