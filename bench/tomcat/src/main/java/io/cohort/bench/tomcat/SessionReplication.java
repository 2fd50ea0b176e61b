package io.cohort.bench.tomcat;

import java.util.Locale;

/**
 * Which session manager a node runs: {@code DeltaManager} copies every session to every member
 * (all-to-all), {@code BackupManager} to one backup member chosen per session, and {@code none} is
 * Tomcat's plain {@code StandardManager} without a cluster (sessions live only on their node; the
 * baseline of replication's cost).
 */
public enum SessionReplication {
    /** No cluster: Tomcat's {@code StandardManager}, sessions only in the node that made them. */
    NONE,
    /** {@code org.apache.catalina.ha.session.DeltaManager}: all-to-all. */
    DELTA,
    /** {@code org.apache.catalina.ha.session.BackupManager}: one backup copy. */
    BACKUP;

    /** The command-line spelling, {@code delta} or {@code backup}. */
    public String argument() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static SessionReplication parse(String text) {
        for (SessionReplication value : values()) {
            if (value.argument().equals(text)) {
                return value;
            }
        }
        throw new IllegalArgumentException("--manager must be none, delta or backup, not '" + text + "'");
    }
}
