package io.cohort.cli.manage;

import java.time.Duration;
import java.util.Locale;

/** Durations as the commands print them. */
final class Durations {

    private Durations() {
    }

    /** {@code 0.42s}, {@code 3.10s}. */
    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.2fs", duration.toMillis() / 1000.0);
    }
}
