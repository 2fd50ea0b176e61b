package io.cohort.replication.database;

import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** One unit of work of the database transport, written by {@link SessionWriter} inside a transaction. */
sealed interface DatabaseWrite {

    /** A fixed estimate of the bytes one row (or one statement on a row) costs, besides its values. */
    long ROW_BYTES = 64;

    String sessionId();

    /** What the write puts on the wire, as counted in {@code cohort.replication.bytes}. */
    long estimatedBytes();

    /** The estimated wire size of these attribute rows: a row each, plus its name and value. */
    static long attributeRowBytes(Map<String, byte[]> values) {
        long bytes = 0;
        for (var value : values.entrySet()) {
            bytes += ROW_BYTES + value.getKey().length() + value.getValue().length;
        }
        return bytes;
    }

    /**
     * A session change: the session row updated under the owner and version check (or inserted for
     * a new session), and the attribute rows of the change rewritten (a full copy rewrites them all).
     *
     * @param mayInsert whether the session is new to the database as far as this node knows, so a
     *     missing row is inserted; otherwise a missing row means another node removed or owns it
     * @param renamedFrom the ids under which this node's rows of the session may be, newest first, when the session got
     *     new ids since they were written (an earlier write under a newer id may or may not have moved them yet): the
     *     first of them that holds rows of this node's has them moved to the new id, before anything is written
     */
    record Store(SessionChange change, boolean mayInsert, List<String> renamedFrom) implements DatabaseWrite {

        public Store {
            Objects.requireNonNull(change, "change");
            renamedFrom = List.copyOf(renamedFrom);
        }

        Store(SessionChange change, boolean mayInsert) {
            this(change, mayInsert, List.of());
        }

        @Override
        public String sessionId() {
            return change.id();
        }

        public boolean full() {
            return change.kind() == ChangeKind.FULL;
        }

        @Override
        public long estimatedBytes() {
            // the session row, the attribute rows written and a statement per attribute removed
            return ROW_BYTES + attributeRowBytes(change.values()) + ROW_BYTES * change.removed().size();
        }
    }

    /**
     * The owner removed the session: its rows go, if this node still owns it, or wherever they are when the user
     * signed off ({@link Reach#ANY_OWNER}).
     *
     * @param formerIds ids the session had before, whose rows of this node's no write moved to the id yet (its
     *     write under the new id failed, or is still queued): they go too, under the owner check whatever the reach
     * @param reach whose rows under {@code sessionId} the removal deletes
     */
    record Removal(String sessionId, List<String> formerIds, Reach reach) implements DatabaseWrite {

        public Removal {
            formerIds = List.copyOf(formerIds);
            Objects.requireNonNull(reach, "reach");
        }

        Removal(String sessionId, Reach reach) {
            this(sessionId, List.of(), reach);
        }

        @Override
        public long estimatedBytes() {
            return 2 * ROW_BYTES;
        }

        /** Whose rows a removal deletes. */
        enum Reach {
            /**
             * Only this node's: an expiry, or the id a change of id retired. A node whose copy is stale (another node
             * loaded the session since) must not delete the live session there.
             */
            OWN_ROWS,
            /**
             * Whichever node owns the row: the application invalidated the session (the user signed off). Even a
             * node whose copy is stale ends the session where it lives now, as a sign-off does under the group
             * protocols; otherwise the signed-off session would stay loadable at the node that took it over.
             */
            ANY_OWNER
        }
    }

    /** The owner used the session without changing it: refresh last access and expiry. */
    record Touch(String sessionId, Instant lastAccessed, long maxInactiveMillis) implements DatabaseWrite {

        @Override
        public long estimatedBytes() {
            return ROW_BYTES;
        }
    }

    /** How a write ended. */
    enum Outcome {
        /** Committed. */
        WRITTEN,
        /** Another node owns the session now (or removed it): nothing was written. */
        CONFLICT,
        /** This node's own earlier write is missing (failed or dropped): nothing was written; send a full copy. */
        GAP,
        /** Nothing to do (a removal of a row that is not there or not ours). */
        SKIPPED
    }
}
