package io.cohort.session.serial;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.InvalidObjectException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamConstants;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Turns session attribute values into bytes and back, for one application.
 *
 * <p>Serialization is plain Java serialization. Deserialization resolves classes with the
 * application's class loader and runs every stream through the application's
 * {@link ObjectInputFilter} (an allow-list with size, depth and reference limits), so a value whose
 * class is not allowed is rejected before any of its code runs. Thread-safe.
 */
public final class SessionValueCodec {

    /**
     * The longest attribute name a distributable application may use: the database protocol's column holds 1024
     * characters, and the peer protocol's frames 4096 bytes (1024 characters of UTF-8 at most).
     */
    public static final int MAX_ATTRIBUTE_NAME_LENGTH = 1024;

    private final ClassLoader classLoader;
    private final ObjectInputFilter filter;
    private final long maxBytes;

    /**
     * @param classLoader the application's class loader
     * @param filter the allow-list filter, e.g. from {@link AllowListFilter}
     * @param maxBytes largest serialized value accepted; checked before any byte is read, because
     *     the JDK applies the filter's own byte limit only when it happens to consult the filter
     */
    public SessionValueCodec(ClassLoader classLoader, ObjectInputFilter filter, long maxBytes) {
        this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
        this.filter = Objects.requireNonNull(filter, "filter");
        this.maxBytes = maxBytes;
    }

    /**
     * Fails fast when a distributable application uses an attribute name no protocol could carry: a longer one would
     * be refused by every copy holder (or the database) at each change, and the session never backed up.
     *
     * @throws IllegalArgumentException naming the attribute by its start and length
     */
    public static void requireReplicableName(String name) {
        if (name.length() > MAX_ATTRIBUTE_NAME_LENGTH) {
            throw new IllegalArgumentException("Session attribute '" + name.substring(0, 40) + "…' has a name of "
                    + name.length() + " characters, longer than " + MAX_ATTRIBUTE_NAME_LENGTH
                    + "; a <distributable/> application's attribute names must be shorter to be replicated");
        }
    }

    /**
     * Fails fast when a distributable application stores a value that cannot be replicated: the value
     * must be {@code null} or implement {@link Serializable}. Checks the value's own class only; a
     * serializable object holding a non-serializable field fails later, at {@link #serialize}.
     *
     * @throws IllegalArgumentException naming the attribute and the offending class
     */
    public static void requireSerializable(String name, Object value) {
        if (value != null && !(value instanceof Serializable)) {
            throw new IllegalArgumentException("Session attribute '" + name + "' of class "
                    + value.getClass().getName() + " is not Serializable; a <distributable/> application "
                    + "may only store Serializable values in its sessions");
        }
    }

    /**
     * The bytes a fresh {@link ObjectOutputStream} writes for the value (stream header included), so any
     * reader, and a copy written by an older version, sees the same format. Written through one stream per
     * thread, reset after each value, which saves building a stream per value.
     *
     * @throws IllegalArgumentException if the value or an object it refers to is not serializable, or it is nested
     *     too deeply to serialize on this thread's stack
     */
    public byte[] serialize(String name, Object value) {
        ValueStream stream = STREAMS.get();
        boolean reused = !stream.busy;
        if (!reused) {
            stream = new ValueStream(); // a value's own writeObject serializes another value on this thread
        }
        try {
            return stream.write(value);
        } catch (NotSerializableException e) {
            STREAMS.remove(); // a stream that failed mid-value is not reused
            throw new IllegalArgumentException("Session attribute '" + name + "' cannot be serialized: "
                    + "it refers to " + e.getMessage() + ", which is not Serializable", e);
        } catch (IOException | RuntimeException e) {
            STREAMS.remove();
            throw new IllegalArgumentException("Session attribute '" + name + "' cannot be serialized: " + e, e);
        } catch (StackOverflowError e) {
            STREAMS.remove();
            throw new IllegalArgumentException("Session attribute '" + name + "' cannot be serialized: it is too deeply "
                    + "nested (the serialization ran out of stack)", e);
        } finally {
            if (reused && !stream.worthKeeping()) {
                STREAMS.remove();
            }
        }
    }

    /**
     * @throws RejectedValueException if the filter rejects a class or a limit, the bytes are not a valid serialized
     *     object, or reading them fails with a {@link StackOverflowError} or a {@link LinkageError}
     */
    public Object deserialize(String name, byte[] bytes) throws RejectedValueException {
        if (bytes.length > maxBytes) {
            throw new RejectedValueException(name, "rejected: " + bytes.length + " bytes exceed the limit of "
                    + maxBytes, null);
        }
        try (var in = new FilteredObjectInputStream(new ByteArrayInputStream(bytes), classLoader, filter)) {
            return in.readObject();
        } catch (InvalidClassException e) {
            throw new RejectedValueException(name, "rejected by the deserialization filter: " + e.getMessage(), e);
        } catch (ClassNotFoundException e) {
            throw new RejectedValueException(name, "class not found in the application: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            throw new RejectedValueException(name, "malformed value: " + e, e);
        } catch (StackOverflowError | LinkageError e) {
            // a value whose own readObject or hash code recurses without end, or an application class that no longer
            // links: the attribute is lost, not the request
            throw new RejectedValueException(name, "could not be read: " + e, e);
        }
    }

    private static final ThreadLocal<ValueStream> STREAMS = ThreadLocal.withInitial(ValueStream::new);

    /**
     * An {@link ObjectOutputStream} kept for one thread: its stream header is written once and dropped; each
     * value is written, copied out behind the header, and the stream reset (forgetting the value's objects
     * and classes) so the next value's bytes are those of a fresh stream.
     */
    private static final class ValueStream extends ByteArrayOutputStream {
        private static final byte[] HEADER = {(byte) (ObjectStreamConstants.STREAM_MAGIC >>> 8),
                (byte) ObjectStreamConstants.STREAM_MAGIC, (byte) (ObjectStreamConstants.STREAM_VERSION >>> 8),
                (byte) ObjectStreamConstants.STREAM_VERSION};
        /** A stream whose buffer grew past this (a large value) is dropped rather than kept by the thread. */
        private static final int KEEP_AT_MOST = 256 * 1024;

        private final ObjectOutputStream out;
        private boolean busy;

        ValueStream() {
            super(1024);
            try {
                out = new ObjectOutputStream(this);
                out.flush();
            } catch (IOException e) {
                throw new UncheckedIOException("an in-memory stream failed", e);
            }
            reset();
        }

        byte[] write(Object value) throws IOException {
            busy = true;
            try {
                out.writeObject(value);
                out.flush();
                byte[] bytes = new byte[HEADER.length + count];
                System.arraycopy(HEADER, 0, bytes, 0, HEADER.length);
                System.arraycopy(buf, 0, bytes, HEADER.length, count);
                out.reset();
                out.flush();
                reset(); // drops the reset marker as well
                return bytes;
            } finally {
                busy = false;
            }
        }

        boolean worthKeeping() {
            return buf.length <= KEEP_AT_MOST;
        }
    }

    /**
     * Reads through the filter and the application's class loader, and refuses containers (collections, maps, map
     * entries) nested more than {@link #MAX_CONTAINER_NESTING} deep. A set's or map's {@code readObject} hashes its
     * elements, and an element's hash code hashes the containers inside it: sets nested 40 deep, each level's two
     * holding the next level's two, cost 2^40 hash codes to rebuild (a few kilobytes of JDK classes within every size,
     * depth and reference limit). Each object's nesting is known once it has been read, before its container hashes
     * it, so the refusal comes before any such cost.
     */
    private static final class FilteredObjectInputStream extends ObjectInputStream {
        /** Far deeper than values nest collections (a map of lists of sets is 3), far below a costly hash (2^16). */
        static final int MAX_CONTAINER_NESTING = 16;
        /** The primitive types by name: a serialized {@code int.class} names one. */
        private static final Map<String, Class<?>> PRIMITIVES = Map.of("boolean", boolean.class, "byte", byte.class,
                "char", char.class, "short", short.class, "int", int.class, "long", long.class, "float", float.class,
                "double", double.class, "void", void.class);

        private final ClassLoader loader;
        /** The nesting of each container read so far (elements are read, and counted, before their container). */
        private final Map<Object, Integer> nesting = new IdentityHashMap<>();

        FilteredObjectInputStream(InputStream in, ClassLoader loader, ObjectInputFilter filter) throws IOException {
            super(in);
            this.loader = loader;
            setObjectInputFilter(filter);
            enableResolveObject(true);
        }

        @Override
        protected Object resolveObject(Object read) throws IOException {
            int depth = containerNesting(read);
            if (depth > MAX_CONTAINER_NESTING) {
                throw new InvalidObjectException("collections or maps nested more than " + MAX_CONTAINER_NESTING
                        + " deep");
            }
            if (depth > 0) {
                nesting.put(read, depth);
            }
            return read;
        }

        private int containerNesting(Object read) {
            try {
                if (read instanceof Collection<?> collection) {
                    return 1 + deepest(collection);
                }
                if (read instanceof Map<?, ?> map) {
                    return 1 + Math.max(deepest(map.keySet()), deepest(map.values()));
                }
                if (read instanceof Map.Entry<?, ?> entry) {
                    return 1 + Math.max(nestingOf(entry.getKey()), nestingOf(entry.getValue()));
                }
            } catch (RuntimeException brokenContainer) {
                return 1; // a container of the application's whose iteration fails: its own readObject decides
            }
            return 0;
        }

        private int deepest(Collection<?> elements) {
            int deepest = 0;
            for (Object element : elements) {
                deepest = Math.max(deepest, nestingOf(element));
            }
            return deepest;
        }

        private int nestingOf(Object element) {
            Integer depth = element == null ? null : nesting.get(element);
            return depth == null ? 0 : depth;
        }

        /**
         * Classes come from the application's class loader only (and the primitive types, which no loader has): not
         * from the node's, which sees what the application's hides from it (Jetty, Cohort, JGroups, the JDBC
         * drivers), so a value the application could not even hold is no class to allow.
         */
        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                Class<?> primitive = PRIMITIVES.get(desc.getName());
                if (primitive != null) {
                    return primitive;
                }
                throw e;
            }
        }
    }
}
