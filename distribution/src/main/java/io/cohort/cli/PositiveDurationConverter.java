package io.cohort.cli;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A {@link DurationConverter} for waits that must be able to end in success: {@code 0s} is refused as a usage error
 * (exit code 2) before the command does anything, not turned into a wait that fails every time.
 */
public final class PositiveDurationConverter implements ITypeConverter<Duration> {

    private final DurationConverter durations = new DurationConverter();

    @Override
    public Duration convert(String value) {
        Duration duration = durations.convert(value);
        if (duration.isZero() || duration.isNegative()) {
            throw new TypeConversionException("'" + value + "' is no wait at all; expected a duration above zero, e.g. 30s");
        }
        return duration;
    }
}
