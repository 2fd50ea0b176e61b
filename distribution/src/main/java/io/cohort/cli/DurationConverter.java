package io.cohort.cli;

import io.cohort.config.ConfigDuration;
import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations on the command line as the configuration files write them: {@code 500ms}, {@code 30s}, {@code 2m}. */
public final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        try {
            return ConfigDuration.parse(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("'" + value + "' is not a duration; expected a whole number with "
                    + "ms, s, m or h, e.g. 30s");
        }
    }
}
