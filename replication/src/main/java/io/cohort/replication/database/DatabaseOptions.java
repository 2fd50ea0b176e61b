package io.cohort.replication.database;

import java.time.Duration;

/**
 * Tuning of the database service that the configuration does not expose (tests shorten the sweep).
 *
 * @param sweepInterval how often expired rows are looked for
 * @param sweepLimit    the most sessions one sweep deletes
 * @param maxPoolSize   the most connections of the transport's own pool (the configured
 *                      {@code <datasource>} pool size is used when smaller)
 */
public record DatabaseOptions(Duration sweepInterval, int sweepLimit, int maxPoolSize) {

    public static final DatabaseOptions DEFAULT = new DatabaseOptions(Duration.ofSeconds(60), 500, 8);

    public DatabaseOptions {
        if (sweepInterval.isNegative() || sweepInterval.isZero()) {
            throw new IllegalArgumentException("sweepInterval must be positive: " + sweepInterval);
        }
        if (sweepLimit < 1 || maxPoolSize < 1) {
            throw new IllegalArgumentException("sweepLimit and maxPoolSize must be at least 1");
        }
    }

    public DatabaseOptions withSweepInterval(Duration interval) {
        return new DatabaseOptions(interval, sweepLimit, maxPoolSize);
    }
}
