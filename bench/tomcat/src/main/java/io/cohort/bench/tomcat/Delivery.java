package io.cohort.bench.tomcat;

import java.util.Locale;

/**
 * How the cluster channel sends session changes: {@code async} (Tomcat's default: the request does not
 * wait) or {@code sync} (the request waits until the receivers acknowledge having processed the change).
 * Free of Tomcat classes, so that launchers outside the node's class path can name it.
 */
public enum Delivery {
    ASYNC,
    SYNC;

    public String argument() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Delivery parse(String text) {
        for (Delivery value : values()) {
            if (value.argument().equals(text)) {
                return value;
            }
        }
        throw new IllegalArgumentException("--delivery must be async or sync, not '" + text + "'");
    }
}
