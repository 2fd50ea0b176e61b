package io.cohort.session.jetty;

import io.cohort.session.LiveSession;
import io.cohort.session.serial.SessionValueCodec;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.jetty.session.ManagedSession;
import org.eclipse.jetty.session.SessionData;

/**
 * Jetty's session data for a Cohort-managed application, extended with what the session store SPI
 * needs: the names changed since the last replication, the session's version, and a fail-fast
 * serializability check at {@code setAttribute} for distributable applications.
 *
 * <p>Not thread-safe on its own: Jetty calls it, and the adapter hands it to stores, only while the
 * owning {@code ManagedSession}'s lock is held. That lock is what makes the changed-name set, the
 * version and the values consistent with each other.
 */
final class TrackedSessionData extends SessionData implements LiveSession {

    private static final long serialVersionUID = 1L;

    private final transient SessionEvents events;
    private final transient SessionValueCodec codec;
    private final transient boolean distributable;
    private final Set<String> changed = new LinkedHashSet<>();
    private long version;
    private boolean maxInactiveChanged;
    /** Whether the store heard of the session at a response commit since the last {@link #takeStored()}. */
    private transient boolean stored;
    /** Whether an attribute or the inactive interval changed since the store last heard of the session at a commit. */
    private transient boolean changedSinceStored;
    private boolean announced;
    private boolean removed;
    /** Whether the cache dropped the session from memory because another node took it over. */
    private transient volatile boolean evicted;
    /** The session Jetty manages with this data; null until the cache attaches it. */
    private transient ManagedSession session;

    TrackedSessionData(SessionEvents events, SessionValueCodec codec, boolean distributable, String id,
            String contextPath, String vhost, long created, long accessed, long lastAccessed, long maxInactiveMs) {
        super(id, contextPath, vhost, created, accessed, lastAccessed, maxInactiveMs);
        this.events = events;
        this.codec = codec;
        this.distributable = distributable;
    }

    @Override
    public Object setAttribute(String name, Object value) {
        if (distributable) {
            SessionValueCodec.requireReplicableName(name);
            SessionValueCodec.requireSerializable(name, value);
        }
        Object old = super.setAttribute(name, value);
        if (value == null && old == null) {
            return null;
        }
        changed.add(name);
        changedSinceStored = true;
        // not once it left this node's memory (another node took it over, or a redeploy's new version has it): a
        // change through a reference kept meanwhile would make this node send a copy over the new owner's
        if (!removed && !evicted && !invalidating()) {
            events.attributeChanged(this, name);
        }
        return old;
    }

    /** A new interval set by the application (the session is attached) is a change to replicate. */
    @Override
    public void setMaxInactiveMs(long maxInactiveMs) {
        if (session != null && maxInactiveMs != getMaxInactiveMs()) {
            maxInactiveChanged = true;
            changedSinceStored = true;
        }
        super.setMaxInactiveMs(maxInactiveMs);
    }

    /**
     * Jetty began invalidating the session: it tells session listeners, then clears every attribute, and only then
     * deletes the session from the cache ({@link #markRemoved}). Attributes cleared or changed from then on, by Jetty
     * or by the application's listeners, are not changes worth sending: the removal makes them moot.
     */
    private boolean invalidating() {
        return session != null && session.isInvalidOrInvalidating();
    }

    /** The session being created or loaded with this data; called by the cache. */
    void attach(ManagedSession managed) {
        this.session = managed;
    }

    /** The store heard of the session: Jetty handed it over (a change, or a save), or the cache did at a commit. */
    void markStored() {
        stored = true;
        changedSinceStored = false;
    }

    /** Whether an attribute or the inactive interval changed since the store last heard of the session. */
    boolean changedSinceStored() {
        return changedSinceStored;
    }

    /** Whether Jetty handed the session to the store since the last call (and forgets it). */
    boolean takeStored() {
        boolean was = stored;
        stored = false;
        return was;
    }

    /** The session is being removed: its attribute removals are not changes worth sending. */
    void markRemoved() {
        removed = true;
    }

    /** The cache dropped the session from memory, valid: another node took it over, or a new version has it. */
    void markEvicted() {
        evicted = true;
    }

    boolean evicted() {
        return evicted;
    }

    boolean announced() {
        return announced;
    }

    void markAnnounced() {
        announced = true;
    }

    void restoreVersion(long restored) {
        this.version = restored;
        this.announced = true;
    }

    @Override
    public String id() {
        return getId();
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public long nextVersion() {
        return ++version;
    }

    @Override
    public Instant created() {
        return Instant.ofEpochMilli(getCreated());
    }

    @Override
    public Instant lastAccessed() {
        return Instant.ofEpochMilli(getAccessed());
    }

    @Override
    public long maxInactiveMillis() {
        return getMaxInactiveMs();
    }

    @Override
    public Set<String> attributeNames() {
        return Set.copyOf(getKeys());
    }

    @Override
    public Set<String> changedAttributeNames() {
        return Set.copyOf(changed);
    }

    @Override
    public boolean maxInactiveChanged() {
        return maxInactiveChanged;
    }

    @Override
    public void markReplicated() {
        changed.clear();
        maxInactiveChanged = false;
    }

    @Override
    public void markReplicatedExcept(Set<String> notSent) {
        markReplicated();
        changed.addAll(notSent);
    }

    @Override
    public byte[] serializedAttribute(String name) {
        Object value = getAttribute(name);
        if (value == null) {
            return null;
        }
        try {
            return codec.serialize(name, value);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }
}
