package io.cohort.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code <serialization>} element: limits applied when deserializing session attributes that
 * came from other members. {@code allow} holds {@link java.io.ObjectInputFilter} patterns
 * ({@code com.shop.Cart}, {@code com.shop.*}, {@code com.shop.**}, {@code com.shop.Cart*}); a class
 * that matches none of them is rejected by {@link #filterPattern()} (primitives, strings and arrays
 * of accepted types always pass, as with any pattern filter).
 *
 * @param maxBytes      the largest serialized value accepted; at least {@link #MIN_MAX_BYTES}
 * @param maxDepth      the deepest object graph accepted
 * @param maxReferences the most object references in one value
 * @param allow         the allow-list, in file order, without duplicates
 */
public record SerializationConfig(DataSize maxBytes, int maxDepth, long maxReferences, List<String> allow) {

    /**
     * The smallest {@code maxBytes}: below it almost every value would be refused (a {@code java.lang.Integer}
     * serializes to 81 bytes, a {@code java.math.BigDecimal} to about 300).
     */
    public static final DataSize MIN_MAX_BYTES = DataSize.ofBytes(1024);

    public SerializationConfig {
        Objects.requireNonNull(maxBytes, "maxBytes");
        requireMinimum(maxBytes);
        if (maxDepth < 1 || maxReferences < 1) {
            throw new IllegalArgumentException("maxDepth and maxReferences must be at least 1");
        }
        allow = List.copyOf(new LinkedHashSet<>(allow));
    }

    static void requireMinimum(DataSize maxBytes) {
        if (maxBytes.compareTo(MIN_MAX_BYTES) < 0) {
            throw new IllegalArgumentException("maxBytes must be at least " + MIN_MAX_BYTES + ": " + maxBytes);
        }
    }

    /**
     * These limits as a web application sees them: its {@code max-bytes} and {@code max-depth}
     * replace the node's when present (they may be larger or smaller), and its allow patterns are
     * added after the node's.
     */
    public SerializationConfig merge(SerializationOverride override) {
        Set<String> merged = new LinkedHashSet<>(allow);
        merged.addAll(override.allow());
        return new SerializationConfig(override.maxBytes().orElse(maxBytes), override.maxDepth().orElse(maxDepth),
                maxReferences, List.copyOf(merged));
    }

    /**
     * The limits and allow-list in {@link java.io.ObjectInputFilter.Config#createFilter(String)}
     * syntax, e.g. {@code maxbytes=1000000;maxdepth=100;maxrefs=100000;com.shop.*;!*}. The first
     * matching class pattern decides, so a caller that must accept classes of its own (its message
     * types) prepends them: {@code "io.cohort.replication.*;" + filterPattern()}. The JDK checks
     * {@code maxbytes} only when it consults the filter (at each class, array and reference), so
     * one large array can exceed it: compare the serialized length with {@link #maxBytes()} before
     * deserializing as well.
     */
    public String filterPattern() {
        StringBuilder pattern = new StringBuilder()
                .append("maxbytes=").append(maxBytes.bytes())
                .append(";maxdepth=").append(maxDepth)
                .append(";maxrefs=").append(maxReferences);
        allow.forEach(p -> pattern.append(';').append(p));
        return pattern.append(";!*").toString();
    }
}
