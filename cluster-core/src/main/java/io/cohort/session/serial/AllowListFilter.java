package io.cohort.session.serial;

import java.io.ObjectInputFilter;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * The deserialization filter for session values: a class is accepted when it matches one of the
 * allow patterns, or when the application itself defines it in {@code WEB-INF/classes}; everything
 * else is rejected, as are streams that exceed the size, depth or reference limits, and arrays whose
 * elements would take more memory than the size limit has bytes (a primitive element takes its own
 * size in the stream too, a reference at least one byte, so arrays in values within the limit pass; the
 * check comes before the JDK allocates the array, which a few dozen bytes could otherwise make it do for
 * gigabytes).
 *
 * <p>Classes from the application's libraries (any archive in {@code WEB-INF/lib}, {@code .jar} or
 * {@code .zip}) are <em>not</em> accepted by default, because that is where deserialization gadgets
 * live; allow them by pattern in the configuration
 * ({@code <serialization><allow pattern="..."/></serialization>}).
 *
 * <p>Patterns use {@link ObjectInputFilter.Config#createFilter} syntax: {@code java.util.*} (a
 * package), {@code com.shop.**} (a package and its sub-packages), {@code com.shop.Cart} (a class).
 * Thread-safe; rejections are counted and reported to a listener (for logging and metrics).
 */
public final class AllowListFilter implements ObjectInputFilter {

    /**
     * JDK value types that sessions commonly hold ({@code java.lang.Object} for the {@code Object[]}
     * inside collections; a bare {@code Object} is not serializable anyway). Not {@code java.net.URL}:
     * its {@code hashCode} resolves the host name, so a {@code HashMap} key of a crafted value makes the
     * receiving node look up any name the sender chose (the "URLDNS" probe); allow it by pattern if a
     * session must hold one.
     */
    public static final List<String> JDK_DEFAULTS = List.of(
            "java.lang.Object", "java.lang.String", "java.lang.Number", "java.lang.Integer", "java.lang.Long",
            "java.lang.Short", "java.lang.Byte", "java.lang.Double", "java.lang.Float",
            "java.lang.Boolean", "java.lang.Character", "java.lang.Enum", "java.lang.Record",
            "java.math.*", "java.time.*", "java.util.*", "java.util.concurrent.*",
            "java.util.concurrent.atomic.*", "java.net.URI", "java.util.Locale");

    private final ObjectInputFilter limitsAndPatterns;
    private final long maxArrayBytes;
    private final ClassLoader applicationLoader;
    private final LongAdder rejected = new LongAdder();
    private final Consumer<String> onRejectedClass;

    /**
     * @param allowPatterns extra patterns on top of {@link #JDK_DEFAULTS}
     * @param maxBytes maximum stream size, and the maximum number of elements of an array
     * @param maxDepth maximum object graph depth
     * @param maxReferences maximum number of references
     * @param applicationLoader the application's class loader; its own classes are allowed
     * @param onRejectedClass told the name of each rejected class (may be called often; deduplicate)
     */
    public AllowListFilter(List<String> allowPatterns, long maxBytes, int maxDepth, long maxReferences,
            ClassLoader applicationLoader, Consumer<String> onRejectedClass) {
        this.applicationLoader = Objects.requireNonNull(applicationLoader, "applicationLoader");
        this.onRejectedClass = Objects.requireNonNull(onRejectedClass, "onRejectedClass");
        List<String> patterns = new ArrayList<>(JDK_DEFAULTS);
        for (String pattern : allowPatterns) {
            if (pattern.isBlank() || pattern.contains(";") || pattern.startsWith("!") || pattern.contains("=")) {
                throw new IllegalArgumentException("invalid allow pattern '" + pattern + "'");
            }
            patterns.add(pattern.strip());
        }
        this.maxArrayBytes = maxBytes;
        String limits = "maxbytes=" + maxBytes + ";maxdepth=" + maxDepth + ";maxrefs=" + maxReferences;
        this.limitsAndPatterns = ObjectInputFilter.Config.createFilter(limits + ";" + String.join(";", patterns));
    }

    /** The memory one element of an array of {@code type} takes at least (a reference: a compressed pointer). */
    private static long elementBytes(Class<?> type) {
        Class<?> element = type == null ? null : type.getComponentType();
        if (element == long.class || element == double.class) {
            return 8;
        }
        if (element == byte.class || element == boolean.class) {
            return 1;
        }
        if (element == char.class || element == short.class) {
            return 2;
        }
        return 4; // int, float, and references
    }

    @Override
    public Status checkInput(FilterInfo info) {
        if (info.arrayLength() > maxArrayBytes / elementBytes(info.serialClass())) {
            // the array is allocated before any of its elements is read: its memory, not its length, is what the
            // byte limit must bound. A limit, whatever the class: no allow pattern admits it
            return reject(null);
        }
        Status status = limitsAndPatterns.checkInput(info);
        if (status == Status.REJECTED) {
            return reject(info.serialClass());
        }
        Class<?> type = info.serialClass();
        if (type == null || status == Status.ALLOWED) {
            return status == Status.UNDECIDED ? Status.UNDECIDED : status;
        }
        Class<?> element = type;
        while (element.isArray()) {
            element = element.getComponentType();
        }
        // the JDK's pattern filter already matched array component types against the patterns
        if (element.isPrimitive() || isApplicationClass(element)) {
            return Status.ALLOWED;
        }
        return reject(type);
    }

    /** How many values were rejected since start. */
    public long rejectedCount() {
        return rejected.sum();
    }

    private Status reject(Class<?> type) {
        rejected.increment();
        onRejectedClass.accept(type == null ? "(limit exceeded)" : type.getName());
        return Status.REJECTED;
    }

    /**
     * Whether the application itself defines the class: the application's loader defined it from the
     * {@code WEB-INF/classes} directory (its code source is that directory, of an unpacked WAR, an
     * exploded web application or, as a {@code jar:} URL, a packed WAR). A class from any archive, such as
     * those Jetty puts on the class path from {@code WEB-INF/lib} ({@code .jar} and {@code .zip}, in any
     * case), or from anywhere else, is not the application's own.
     */
    private boolean isApplicationClass(Class<?> type) {
        if (type.getClassLoader() != applicationLoader) {
            return false;
        }
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return false;
        }
        String path = source.getLocation().getPath();
        return path != null && path.endsWith("/WEB-INF/classes/");
    }
}
