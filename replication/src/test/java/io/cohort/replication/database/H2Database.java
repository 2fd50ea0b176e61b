package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;

/**
 * An in-memory H2 database that every node of a test reaches through its own pool on the same
 * {@code jdbc:h2:mem:...;DB_CLOSE_DELAY=-1} URL, as nodes in one JVM share an embedded database.
 */
final class H2Database implements TestDatabase {

    private final String url = "jdbc:h2:mem:cohort-" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";

    @Override
    public String jdbcUrl() {
        return url;
    }

    @Override
    public Optional<String> user() {
        return Optional.of("sa");
    }

    @Override
    public Optional<String> password() {
        return Optional.empty();
    }

    @Override
    public String description() {
        return "H2 " + url;
    }

    @Override
    public void close() {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN");
        } catch (SQLException e) {
            throw new IllegalStateException("could not shut " + url + " down", e);
        }
    }
}
