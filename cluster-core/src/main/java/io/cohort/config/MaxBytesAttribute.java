package io.cohort.config;

/**
 * The {@code max-bytes} attribute of {@code <serialization>}, in a node's file and in {@code WEB-INF/cohort-web.xml}
 * alike: a size of at least {@link SerializationConfig#MIN_MAX_BYTES}, refused at the attribute otherwise (a smaller
 * limit would refuse almost every replicated value, so the sessions would silently stop replicating).
 */
final class MaxBytesAttribute {

    private static final String ATTRIBUTE = "max-bytes";

    private MaxBytesAttribute() {
    }

    static DataSize read(SourceElement at, String value) throws ConfigException {
        DataSize size = at.size(ATTRIBUTE, value);
        if (size.compareTo(SerializationConfig.MIN_MAX_BYTES) < 0) {
            throw at.attributeError(ATTRIBUTE, ATTRIBUTE + "=\"" + value + "\" on " + at.tag() + " is below "
                    + SerializationConfig.MIN_MAX_BYTES + " and would refuse almost every replicated value "
                    + "(one java.math.BigDecimal serializes to about 300 bytes)",
                    "a size of at least " + SerializationConfig.MIN_MAX_BYTES + ", e.g. 1MB");
        }
        return size;
    }
}
