package io.cohort.session;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An immutable copy of a session as a store keeps it: metadata plus serialized attribute values.
 * Values are opaque bytes here; the node deserializes them with the application's class loader
 * through its deserialization filter.
 *
 * @param id session id without route suffix
 * @param version the version of the last change this copy reflects
 * @param created creation time
 * @param lastAccessed last access time known to the copy
 * @param maxInactiveMillis maximum inactive interval in milliseconds (zero or less: never expires)
 * @param attributes attribute name to serialized value
 */
public record StoredSession(
        String id,
        long version,
        Instant created,
        Instant lastAccessed,
        long maxInactiveMillis,
        Map<String, byte[]> attributes) {

    public StoredSession {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(lastAccessed, "lastAccessed");
        attributes = Map.copyOf(attributes);
    }

    /** Whether the copy has outlived its inactive interval at {@code now}. */
    public boolean isExpiredAt(Instant now) {
        return maxInactiveMillis > 0 && lastAccessed.plusMillis(maxInactiveMillis).isBefore(now);
    }

    /**
     * Whether the session had expired at {@code now} whatever its owner saw last: a copy's last access may lag the
     * owner's by up to a quarter of the inactive interval ({@link SessionStore#load}), so the copy must have outlived
     * its interval by more than that quarter. A node that takes a session over uses this, not {@link #isExpiredAt}:
     * a user who was active within the interval keeps the session, and one who left for longer does not get it back.
     */
    public boolean expiredBeyondDoubtAt(Instant now) {
        return expiredBeyondDoubt(lastAccessed, maxInactiveMillis, now);
    }

    /** {@link #expiredBeyondDoubtAt} for a session known only by its last access and inactive interval. */
    public static boolean expiredBeyondDoubt(Instant lastAccessed, long maxInactiveMillis, Instant now) {
        return maxInactiveMillis > 0 && lastAccessed.plusMillis(maxInactiveMillis + maxInactiveMillis / 4).isBefore(now);
    }

    /** Takes a complete snapshot of a live session. */
    public static StoredSession of(LiveSession session) {
        var values = new java.util.HashMap<String, byte[]>();
        for (String name : session.attributeNames()) {
            byte[] value = session.serializedAttribute(name);
            if (value != null) {
                values.put(name, value);
            }
        }
        return new StoredSession(session.id(), session.version(), session.created(),
                session.lastAccessed(), session.maxInactiveMillis(), values);
    }

    /** Total size of the serialized attribute values in bytes. */
    public long attributeBytes() {
        return attributes.values().stream().mapToLong(v -> v.length).sum();
    }

    @Override
    public String toString() {
        return "StoredSession[id=" + id + ", version=" + version + ", attributes=" + attributes.keySet() + "]";
    }
}
