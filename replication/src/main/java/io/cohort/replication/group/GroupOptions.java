package io.cohort.replication.group;

import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.wire.WireLimits;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of the group service that the configuration file does not carry.
 *
 * @param stackTuning   values for the JGroups stack's {@code ${...}} placeholders that win over the
 *                      configuration (e.g. {@code cohort.fd.timeout}); tests shorten timeouts with them
 * @param sweepInterval how often orphaned backups and old tombstones are swept
 * @param limits        bounds of decoded messages
 * @param callerSends   when a request thread sends an asynchronous change itself instead of waking its send
 *                      lane's thread ({@link io.cohort.replication.engine.Batching}); {@link CallerSends#WHEN_QUIET}
 *                      by default, the others to measure what it saves
 * @param tombstoneLifetime how long a removed session's id is remembered by the {@link BackupStore}
 *                      ({@link BackupStore#TOMBSTONE_LIFETIME} by default); tests shorten it to see what happens
 *                      once a tombstone is gone
 */
public record GroupOptions(Map<String, String> stackTuning, Duration sweepInterval, WireLimits limits,
                           CallerSends callerSends, Duration tombstoneLifetime) {

    public static final GroupOptions DEFAULT = new GroupOptions(Map.of(), Duration.ofSeconds(30), WireLimits.DEFAULT,
            CallerSends.WHEN_QUIET, BackupStore.TOMBSTONE_LIFETIME);

    public GroupOptions {
        stackTuning = Map.copyOf(stackTuning);
        Objects.requireNonNull(sweepInterval, "sweepInterval");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(callerSends, "callerSends");
        Objects.requireNonNull(tombstoneLifetime, "tombstoneLifetime");
        if (tombstoneLifetime.isNegative() || tombstoneLifetime.isZero()) {
            throw new IllegalArgumentException("tombstoneLifetime must be positive: " + tombstoneLifetime);
        }
    }

    public GroupOptions withStackTuning(Map<String, String> tuning) {
        return new GroupOptions(tuning, sweepInterval, limits, callerSends, tombstoneLifetime);
    }

    public GroupOptions withSweepInterval(Duration interval) {
        return new GroupOptions(stackTuning, interval, limits, callerSends, tombstoneLifetime);
    }

    public GroupOptions withCallerSends(CallerSends rule) {
        return new GroupOptions(stackTuning, sweepInterval, limits, rule, tombstoneLifetime);
    }

    public GroupOptions withTombstoneLifetime(Duration lifetime) {
        return new GroupOptions(stackTuning, sweepInterval, limits, callerSends, lifetime);
    }
}
