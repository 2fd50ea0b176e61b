package io.cohort.config;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The duration syntax of Cohort's configuration files: a whole number with one of the units
 * {@code ms}, {@code s}, {@code m}, {@code h}, e.g. {@code 500ms}, {@code 2s}, {@code 5m}. No space,
 * no fractions, no combined units.
 */
public final class ConfigDuration {

    private static final Pattern SYNTAX = Pattern.compile("([0-9]+)(ms|s|m|h)");

    private ConfigDuration() {
    }

    /**
     * Parses {@code <integer><unit>}.
     *
     * @throws IllegalArgumentException if the text has another form or is too large for a Duration
     */
    public static Duration parse(String text) {
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration with unit ms, s, m or h: " + text);
        }
        try {
            long amount = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                default -> Duration.ofHours(amount);
            };
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("duration too large: " + text, e);
        }
    }

    /**
     * Formats a duration in the largest unit that represents it exactly, e.g. {@code 2s},
     * {@code 1500ms}; the inverse of {@link #parse(String)} for whole milliseconds.
     *
     * @throws IllegalArgumentException for negative durations or durations with sub-millisecond parts
     */
    public static String format(Duration duration) {
        if (duration.isNegative() || duration.toNanosPart() % 1_000_000 != 0) {
            throw new IllegalArgumentException("not expressible in whole milliseconds: " + duration);
        }
        long millis = duration.toMillis();
        if (millis != 0 && millis % 3_600_000 == 0) {
            return millis / 3_600_000 + "h";
        }
        if (millis != 0 && millis % 60_000 == 0) {
            return millis / 60_000 + "m";
        }
        if (millis != 0 && millis % 1_000 == 0) {
            return millis / 1_000 + "s";
        }
        return millis + "ms";
    }
}
