package io.cohort.replication.engine;

/** Whether a {@link SessionChange} replaces a copy or updates it. */
public enum ChangeKind {
    /** The complete session: a holder replaces its copy (if this one is newer). */
    FULL,
    /** Some attributes set or removed: a holder applies it to the copy of the previous version only. */
    DELTA
}
