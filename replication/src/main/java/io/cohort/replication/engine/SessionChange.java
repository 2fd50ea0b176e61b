package io.cohort.replication.engine;

import io.cohort.session.StoredSession;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One replicated change of one session, as the owner emits it: the version it creates, the session's
 * metadata at that moment, and either the whole session ({@link ChangeKind#FULL}) or the attributes
 * set and removed since the previous version ({@link ChangeKind#DELTA}). Values are serialized bytes,
 * snapshotted while the owner held the session's lock; the arrays must not be modified afterwards.
 *
 * @param id                the session id without route suffix
 * @param version           the version this change produces (the previous one plus one)
 * @param kind              full copy or delta
 * @param created           creation time
 * @param lastAccessed      last access time at the owner
 * @param maxInactiveMillis maximum inactive interval (zero or less: never expires)
 * @param values            attributes set (all attributes of the session for a full copy)
 * @param removed           attributes removed since the previous version (empty for a full copy)
 * @param unsent            attributes the session has whose value could not be serialized for this change (another
 *                          request changed it while it was written): not in {@code values}, and not removed. A delta
 *                          leaves them as the receiver has them anyway; a full copy does too ({@link #applyTo}), so
 *                          that one failed write never takes an attribute out of a copy. Known only at the owner: a
 *                          change read from the network has none
 */
public record SessionChange(String id, long version, ChangeKind kind, Instant created, Instant lastAccessed,
                            long maxInactiveMillis, Map<String, byte[]> values, Set<String> removed,
                            Set<String> unsent) {

    public SessionChange {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(lastAccessed, "lastAccessed");
        values = Map.copyOf(values);
        removed = Set.copyOf(removed);
        unsent = Set.copyOf(unsent);
        if (version < 0) {
            throw new IllegalArgumentException("version must not be negative: " + version);
        }
        if (kind == ChangeKind.FULL && !removed.isEmpty()) {
            throw new IllegalArgumentException("a full copy has no removed attributes");
        }
    }

    /** A change whose every attribute in scope was serialized. */
    public SessionChange(String id, long version, ChangeKind kind, Instant created, Instant lastAccessed,
                         long maxInactiveMillis, Map<String, byte[]> values, Set<String> removed) {
        this(id, version, kind, created, lastAccessed, maxInactiveMillis, values, removed, Set.of());
    }

    /** A full copy of a stored session. */
    public static SessionChange full(StoredSession session) {
        return new SessionChange(session.id(), session.version(), ChangeKind.FULL, session.created(),
                session.lastAccessed(), session.maxInactiveMillis(), session.attributes(), Set.of());
    }

    /**
     * The session after this change: a full copy stands alone, but for its {@link #unsent} attributes, whose values
     * it takes from {@code base}; a delta is applied to {@code base} (its metadata replaces the base's). A change
     * without a base yields only its own attributes.
     */
    public StoredSession applyTo(StoredSession base) {
        Map<String, byte[]> attributes;
        if (base == null || (kind == ChangeKind.FULL && unsent.isEmpty())) {
            attributes = values;
        } else if (kind == ChangeKind.FULL) {
            attributes = new HashMap<>(values);
            for (String name : unsent) {
                byte[] before = base.attributes().get(name);
                if (before != null) {
                    attributes.put(name, before);
                }
            }
        } else {
            attributes = new HashMap<>(base.attributes());
            removed.forEach(attributes::remove);
            attributes.putAll(values);
        }
        return new StoredSession(id, version, created, lastAccessed, maxInactiveMillis, attributes);
    }

    /** Total size of the serialized values carried. */
    public long valueBytes() {
        long total = 0;
        for (byte[] value : values.values()) {
            total += value.length;
        }
        return total;
    }

    /** How many attributes the change carries, set or removed. */
    public int attributeCount() {
        return values.size() + removed.size();
    }

    @Override
    public String toString() {
        return "SessionChange[" + id + " v" + version + " " + kind + " set=" + values.keySet() + " removed=" + removed
                + (unsent.isEmpty() ? "" : " unsent=" + unsent) + "]";
    }
}
