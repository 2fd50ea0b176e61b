package io.cohort.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@code <datasource>}: a JDBC connection pool bound in JNDI under {@code java:comp/env/<name>},
 * or the inline connection of a {@link DatabaseProtocol}.
 *
 * @param name              the JNDI name relative to {@code java:comp/env}, e.g. {@code jdbc/jpetstore}
 * @param url               the JDBC URL
 * @param user              the database user, if any
 * @param password          the password, from {@code password-env} or {@code password-file}
 * @param maxPoolSize       the most pooled connections
 * @param connectionTimeout how long a caller waits for a free connection; at least {@link #MIN_CONNECTION_TIMEOUT}
 */
public record DataSourceConfig(String name, String url, Optional<String> user, Optional<Secret> password,
                               int maxPoolSize, Duration connectionTimeout) {

    /**
     * The shortest connection wait: HikariCP refuses to start a pool with less, and takes 0 as "wait forever". Every
     * pool made of this record (the node's JNDI pools, the session database's) can use the value as it is.
     */
    public static final Duration MIN_CONNECTION_TIMEOUT = Duration.ofMillis(250);

    public DataSourceConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
        if (maxPoolSize < 1) {
            throw new IllegalArgumentException("maxPoolSize must be at least 1: " + maxPoolSize);
        }
        Objects.requireNonNull(connectionTimeout, "connectionTimeout");
        if (connectionTimeout.compareTo(MIN_CONNECTION_TIMEOUT) < 0) {
            throw new IllegalArgumentException("connectionTimeout must be at least " + MIN_CONNECTION_TIMEOUT.toMillis() + "ms: "
                    + connectionTimeout);
        }
    }

    /** The full JNDI name, {@code java:comp/env/<name>}. */
    public String jndiName() {
        return "java:comp/env/" + name;
    }
}
