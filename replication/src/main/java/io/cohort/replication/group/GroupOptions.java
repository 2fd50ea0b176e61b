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
 */
public record GroupOptions(Map<String, String> stackTuning, Duration sweepInterval, WireLimits limits,
                           CallerSends callerSends) {

    public static final GroupOptions DEFAULT =
            new GroupOptions(Map.of(), Duration.ofSeconds(30), WireLimits.DEFAULT, CallerSends.WHEN_QUIET);

    public GroupOptions {
        stackTuning = Map.copyOf(stackTuning);
        Objects.requireNonNull(sweepInterval, "sweepInterval");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(callerSends, "callerSends");
    }

    public GroupOptions withStackTuning(Map<String, String> tuning) {
        return new GroupOptions(tuning, sweepInterval, limits, callerSends);
    }

    public GroupOptions withSweepInterval(Duration interval) {
        return new GroupOptions(stackTuning, interval, limits, callerSends);
    }

    public GroupOptions withCallerSends(CallerSends rule) {
        return new GroupOptions(stackTuning, sweepInterval, limits, rule);
    }
}
