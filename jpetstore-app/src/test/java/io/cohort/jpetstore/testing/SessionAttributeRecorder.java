package io.cohort.jpetstore.testing;

import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sees every session attribute as a "modified attributes" replicator would: it serializes each value when it is
 * set, keeps those bytes per session, and the largest size seen per attribute name. {@link #matchesLastSet}
 * tells whether a session's current value still serializes to what was last set, i.e. whether the app has
 * changed an attribute without setting it again.
 */
public final class SessionAttributeRecorder implements HttpSessionAttributeListener {
    private final Map<HttpSession, Map<String, byte[]>> lastSet = new IdentityHashMap<>();
    private final Map<String, Integer> largest = new TreeMap<>();
    private final Map<String, Integer> sets = new TreeMap<>();

    @Override
    public synchronized void attributeAdded(HttpSessionBindingEvent event) {
        record(event);
    }

    @Override
    public synchronized void attributeReplaced(HttpSessionBindingEvent event) {
        record(event);
    }

    @Override
    public synchronized void attributeRemoved(HttpSessionBindingEvent event) {
        Map<String, byte[]> attributes = lastSet.get(event.getSession());
        if (attributes != null) {
            attributes.remove(event.getName());
        }
    }

    /** Largest serialized size seen per attribute name, in bytes. */
    public synchronized Map<String, Integer> largestSizes() {
        return new TreeMap<>(largest);
    }

    /** How often each attribute was set. */
    public synchronized Map<String, Integer> setCounts() {
        return new TreeMap<>(sets);
    }

    public synchronized boolean matchesLastSet(HttpSession session, String name, Object current) {
        Map<String, byte[]> attributes = lastSet.get(session);
        return attributes != null && Arrays.equals(attributes.get(name), serialize(current));
    }

    public static byte[] serialize(Object value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (NotSerializableException e) {
            throw new AssertionError("a session attribute is not serializable: " + e.getMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return bytes.toByteArray();
    }

    private void record(HttpSessionBindingEvent event) {
        // HttpSessionBindingEvent.getValue() is the old value on replace; the session has the new one.
        Object value = event.getSession().getAttribute(event.getName());
        byte[] bytes = serialize(value);
        lastSet.computeIfAbsent(event.getSession(), s -> new TreeMap<>()).put(event.getName(), bytes);
        largest.merge(event.getName(), bytes.length, Math::max);
        sets.merge(event.getName(), 1, Integer::sum);
    }
}
