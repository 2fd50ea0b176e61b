package io.cohort.bench.tomcat;

import java.util.Locale;
import org.apache.catalina.tribes.Channel;

/**
 * How the cluster channel sends session changes: {@code async} (Tomcat's default: the request does not
 * wait) or {@code sync} (the request waits until the receivers acknowledge having processed the change).
 */
public enum Delivery {
    ASYNC(Channel.SEND_OPTIONS_ASYNCHRONOUS),
    SYNC(Channel.SEND_OPTIONS_SYNCHRONIZED_ACK | Channel.SEND_OPTIONS_USE_ACK);

    private final int sendOptions;

    Delivery(int sendOptions) {
        this.sendOptions = sendOptions;
    }

    /** The Tribes channel send options. */
    int sendOptions() {
        return sendOptions;
    }

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
