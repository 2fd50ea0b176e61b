package io.cohort.config;

import java.time.Duration;
import java.util.Objects;

/**
 * {@code <database>}: sessions kept in a shared database over JDBC; write-quota does not apply.
 *
 * @param connection    where the session tables live: the declared {@code <datasource>} named by
 *                      {@code data-source} (same record as in {@link CohortConfig#dataSources()}, so
 *                      a runtime may share its pool), or else a connection built from {@code url},
 *                      {@code user} and {@code password-*}, named {@link #INLINE_CONNECTION_NAME},
 *                      with the {@code <datasource>} defaults for pool size and timeout
 * @param tablePrefix   the prefix of the session tables' names
 * @param batchSize     the most changes written in one JDBC batch
 * @param flushInterval the longest time an asynchronous change waits to be batched
 */
public record DatabaseProtocol(DataSourceConfig connection, String tablePrefix, int batchSize, Duration flushInterval)
        implements ProtocolConfig {

    /** The name of a connection given inline by {@code url}; it is not bound in JNDI. */
    public static final String INLINE_CONNECTION_NAME = "cohort/sessions";

    public DatabaseProtocol {
        Objects.requireNonNull(connection, "connection");
        Objects.requireNonNull(tablePrefix, "tablePrefix");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
        }
        Objects.requireNonNull(flushInterval, "flushInterval");
    }
}
