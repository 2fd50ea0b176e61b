package io.cohort.replication.engine;

import io.cohort.session.LiveSession;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link LiveSession} into a {@link SessionChange} while the caller holds the session's
 * lock: serializes the attributes in scope, takes the next version and resets the session's change
 * tracking. A value that cannot be serialized (an object graph with a non-serializable member, or one
 * another request changed while it was written) is left out, counted and logged once per attribute
 * name, and named in the change's {@link SessionChange#unsent}: a full copy then keeps the value the copies had
 * rather than dropping the attribute from them. Such attributes stay changed in the session's tracking, so the next
 * change tries them again (and only them, of what this change sent); a delta that would carry nothing but such
 * attributes, failing again, is not made: the copies have nothing to learn from it.
 */
final class SessionSnapshot {

    private static final Logger LOG = LoggerFactory.getLogger(SessionSnapshot.class);

    private final ReplicationMetrics metrics;
    private final Set<String> loggedFailures = ConcurrentHashMap.newKeySet();

    SessionSnapshot(ReplicationMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * @param everything all attributes (a full copy) rather than the changed ones
     * @return empty when only changes were asked for and nothing changed, neither an attribute nor the inactive
     *     interval, or only attributes whose values cannot be serialized now (the version stays); a change of the
     *     interval alone is a delta without attributes
     */
    Optional<SessionChange> take(LiveSession session, boolean everything) {
        Set<String> names = everything ? session.attributeNames() : session.changedAttributeNames();
        if (!everything && names.isEmpty() && !session.maxInactiveChanged()) {
            return Optional.empty();
        }
        Map<String, byte[]> values = new HashMap<>();
        Set<String> removed = new HashSet<>();
        Set<String> unsent = null; // made only for a value that fails: the hot path allocates nothing for it
        for (String name : names) {
            try {
                byte[] value = session.serializedAttribute(name);
                if (value != null) {
                    values.put(name, value);
                } else if (!everything) {
                    removed.add(name);
                }
            } catch (IllegalStateException | IllegalArgumentException e) {
                if (unsent == null) {
                    unsent = new HashSet<>();
                }
                unsent.add(name);
                metrics.failed();
                if (loggedFailures.add(name)) {
                    LOG.warn("{}: attribute {} of session {} is not replicated: {}", metrics.application(), name,
                            session.id(), e.getMessage());
                }
            }
        }
        if (unsent != null && !everything && values.isEmpty() && removed.isEmpty() && !session.maxInactiveChanged()) {
            return Optional.empty();
        }
        long version = session.nextVersion();
        if (unsent == null) {
            session.markReplicated();
        } else {
            session.markReplicatedExcept(unsent);
        }
        return Optional.of(new SessionChange(session.id(), version, everything ? ChangeKind.FULL : ChangeKind.DELTA,
                session.created(), session.lastAccessed(), session.maxInactiveMillis(), values, removed,
                unsent == null ? Set.of() : unsent));
    }
}
