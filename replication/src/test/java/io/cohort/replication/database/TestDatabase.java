package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Optional;

/** A database of its own for one test (class): where the session tables go, dropped on close. */
interface TestDatabase extends AutoCloseable {

    String jdbcUrl();

    Optional<String> user();

    Optional<String> password();

    String description();

    /** A connection outside the nodes' pools, for assertions on the tables. */
    default Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl(), user().orElse(null), password().orElse(null));
    }

    @Override
    void close();
}
