package io.cohort.replication.group;

import io.cohort.replication.engine.SessionChange;
import io.cohort.session.StoredSession;
import java.util.Optional;

/**
 * Bench-side door to the holder's package-private {@link BackupStore}: lives in the group package
 * name inside {@code bench/} so the benchmark applies changes with the real holder-side code. Not
 * part of the product.
 */
public final class BackupCopies {

    private final BackupStore store = new BackupStore();

    /** Applies a change as the holder does; returns the outcome's name (APPLIED, STALE, GAP, REMOVED). */
    public String apply(String application, String owner, SessionChange change) {
        return store.apply(application, owner, change).name();
    }

    public Optional<StoredSession> get(String application, String id) {
        return store.get(application, id);
    }

    /** The copy a running member holds as a backup (the service's package-private view). */
    public static Optional<StoredSession> heldBy(GroupReplicationService member, String application, String id) {
        return member.backupOf(application, id);
    }
}
