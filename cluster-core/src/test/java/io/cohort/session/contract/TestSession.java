package io.cohort.session.contract;

import io.cohort.session.LiveSession;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.RejectedValueException;
import io.cohort.session.serial.SessionValueCodec;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A live session for store tests, without Jetty: attributes in a map, changes tracked the way the
 * node's adapter tracks them. Not thread-safe, like the real one (callers hold its monitor).
 */
public final class TestSession implements LiveSession {

    private final String id;
    private final Instant created;
    private final SessionValueCodec codec;
    private final Map<String, Object> values = new LinkedHashMap<>();
    private final Set<String> changed = new LinkedHashSet<>();
    private Instant lastAccessed;
    private long maxInactiveMillis = 30 * 60 * 1000L;
    private long version;
    private boolean maxInactiveChanged;

    public TestSession(String id, SessionValueCodec codec) {
        this.id = id;
        this.codec = codec;
        this.created = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        this.lastAccessed = created;
    }

    /**
     * The live session a node builds from a loaded copy: the copy's attributes, nothing left to replicate, at the copy's
     * version (the next change is the one after it).
     */
    public static TestSession continuing(StoredSession copy, SessionValueCodec codec) throws RejectedValueException {
        TestSession session = new TestSession(copy.id(), codec);
        synchronized (session) {
            for (var attribute : copy.attributes().entrySet()) {
                session.set(attribute.getKey(), codec.deserialize(attribute.getKey(), attribute.getValue()));
            }
            session.markReplicated();
            while (session.version() < copy.version()) {
                session.nextVersion();
            }
        }
        return session;
    }

    /** Sets (or with {@code null} removes) an attribute and tracks the change. */
    public TestSession set(String name, Object value) {
        if (value == null) {
            values.remove(name);
        } else {
            values.put(name, value);
        }
        changed.add(name);
        return this;
    }

    public Object get(String name) {
        return values.get(name);
    }

    public TestSession access(Instant when) {
        this.lastAccessed = when.truncatedTo(ChronoUnit.MILLIS);
        return this;
    }

    public TestSession maxInactive(long millis) {
        this.maxInactiveMillis = millis;
        return this;
    }

    /** Sets a new inactive interval as the application does ({@code setMaxInactiveInterval}): a change to replicate. */
    public TestSession changeMaxInactive(long millis) {
        this.maxInactiveMillis = millis;
        this.maxInactiveChanged = true;
        return this;
    }

    /** The same session under a new id, as after {@code HttpServletRequest.changeSessionId()}. */
    public TestSession renamed(String newId) {
        TestSession copy = new TestSession(newId, codec);
        copy.values.putAll(values);
        copy.version = version;
        copy.lastAccessed = lastAccessed;
        copy.maxInactiveMillis = maxInactiveMillis;
        return copy;
    }

    @Override public String id() { return id; }
    @Override public long version() { return version; }
    @Override public long nextVersion() { return ++version; }
    @Override public Instant created() { return created; }
    @Override public Instant lastAccessed() { return lastAccessed; }
    @Override public long maxInactiveMillis() { return maxInactiveMillis; }
    @Override public Set<String> attributeNames() { return Set.copyOf(values.keySet()); }
    @Override public Set<String> changedAttributeNames() { return Set.copyOf(changed); }
    @Override public boolean maxInactiveChanged() { return maxInactiveChanged; }
    @Override public void markReplicated() {
        changed.clear();
        maxInactiveChanged = false;
    }
    @Override public void markReplicatedExcept(Set<String> notSent) {
        markReplicated();
        changed.addAll(notSent);
    }

    @Override
    public byte[] serializedAttribute(String name) {
        Object value = values.get(name);
        return value == null ? null : codec.serialize(name, value);
    }
}
