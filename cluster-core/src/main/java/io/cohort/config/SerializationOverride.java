package io.cohort.config;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code <serialization>} element of {@code WEB-INF/cohort-web.xml}: what a web application
 * changes in the node's {@link SerializationConfig}; see {@link SerializationConfig#merge}.
 *
 * @param maxBytes replaces the node's max-bytes when present; at least {@link SerializationConfig#MIN_MAX_BYTES}
 * @param maxDepth replaces the node's max-depth when present
 * @param allow    patterns added to the node's allow-list
 */
public record SerializationOverride(Optional<DataSize> maxBytes, Optional<Integer> maxDepth, List<String> allow) {

    /** Changes nothing. */
    public static final SerializationOverride NONE = new SerializationOverride(Optional.empty(), Optional.empty(), List.of());

    public SerializationOverride {
        Objects.requireNonNull(maxBytes, "maxBytes");
        maxBytes.ifPresent(SerializationConfig::requireMinimum);
        Objects.requireNonNull(maxDepth, "maxDepth");
        allow = List.copyOf(allow);
    }
}
