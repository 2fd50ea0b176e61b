package io.cohort.session.serial;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InvalidClassException;
import java.io.NotSerializableException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
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
     * @throws IllegalArgumentException if the value or an object it refers to is not serializable
     */
    public byte[] serialize(String name, Object value) {
        var bytes = new ByteArrayOutputStream(256);
        try (var out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (NotSerializableException e) {
            throw new IllegalArgumentException("Session attribute '" + name + "' cannot be serialized: "
                    + "it refers to " + e.getMessage() + ", which is not Serializable", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("Session attribute '" + name + "' cannot be serialized: " + e, e);
        }
        return bytes.toByteArray();
    }

    /**
     * @throws RejectedValueException if the filter rejects a class or a limit, or the bytes are
     *     not a valid serialized object
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
        }
    }

    private static final class FilteredObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        FilteredObjectInputStream(InputStream in, ClassLoader loader, ObjectInputFilter filter) throws IOException {
            super(in);
            this.loader = loader;
            setObjectInputFilter(filter);
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
