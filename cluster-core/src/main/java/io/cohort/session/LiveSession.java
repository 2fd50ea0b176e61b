package io.cohort.session;

import java.time.Instant;
import java.util.Set;

/**
 * A read view of a session owned by this node, handed to a {@link SessionStore} while the node
 * holds the session's lock. Valid only during the call it is passed to.
 *
 * <p>The view tracks which attributes changed since the store last declared the session
 * replicated ({@link #markReplicated()}), so a store can send only what changed.
 */
public interface LiveSession {

    /** The session id without the route suffix. */
    String id();

    /** Monotonic per session: incremented by the store through {@link #nextVersion()}. */
    long version();

    /** Increments and returns the version; to be called once per change the store emits. */
    long nextVersion();

    Instant created();

    Instant lastAccessed();

    /** Maximum inactive interval in milliseconds; zero or negative means never expires. */
    long maxInactiveMillis();

    /** Names of all attributes currently present. */
    Set<String> attributeNames();

    /** Names set, replaced or removed since the last {@link #markReplicated()}. */
    Set<String> changedAttributeNames();

    /**
     * Whether the maximum inactive interval was changed (by the application, {@code setMaxInactiveInterval}) since
     * the last {@link #markReplicated()}: a change to send even when no attribute changed, so the copies expire when
     * the session does.
     */
    default boolean maxInactiveChanged() {
        return false;
    }

    /** Forgets the changes tracked so far (attributes and interval); the next change starts a new set. */
    void markReplicated();

    /**
     * As {@link #markReplicated()}, but the attributes named in {@code notSent} (their values could not be serialized
     * for this change) count as changed afterwards, whether they were before or not: the next change tries them again,
     * without the values that did go out.
     */
    void markReplicatedExcept(Set<String> notSent);

    /**
     * The attribute's current value in serialized form, or {@code null} if it is not present.
     *
     * @throws IllegalStateException if the value cannot be serialized (only possible for values
     *     stored in a non-distributable application)
     */
    byte[] serializedAttribute(String name);
}
