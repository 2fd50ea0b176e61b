package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node finds the session tables others made, on PostgreSQL: where they exist (with their index) it issues no DDL,
 * which would wait behind every open write of the cluster and need rights a least-privileged user lacks.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionTablesTest {

    @Test
    void aStartingNodeDoesNotWaitForAnotherNodesOpenWriteToTheTables() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open()) {
            SessionTables tables = createAs(database);
            try (Connection writing = database.connect(); Statement statement = writing.createStatement()) {
                writing.setAutoCommit(false); // another node's batch, still open
                statement.executeUpdate("UPDATE " + tables.sessions() + " SET host = host WHERE id = 'x'");

                CompletableFuture<SessionTables> starting = CompletableFuture.supplyAsync(() -> createAs(database));

                assertThat(starting).as("the starting node's table check").succeedsWithin(Duration.ofSeconds(10));
                writing.rollback();
            }
        }
    }

    @Test
    void aUserThatMayOnlyReadAndWriteTheTablesStartsOnTablesMadeForIt() throws Exception {
        String role = "cohort_rw_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (PostgresDatabase database = PostgresDatabase.open()) {
            SessionTables tables = createAs(database);
            String schema;
            try (Connection admin = database.connect(); Statement statement = admin.createStatement()) {
                schema = admin.getSchema();
                statement.execute("CREATE ROLE " + role + " LOGIN");
                statement.execute("GRANT USAGE ON SCHEMA " + schema + " TO " + role);
                statement.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + tables.sessions() + ", "
                        + tables.attributes() + " TO " + role);
            }
            org.postgresql.ds.PGSimpleDataSource limited = new org.postgresql.ds.PGSimpleDataSource();
            limited.setUrl(database.jdbcUrl());
            limited.setUser(role);

            assertThat(SessionTables.createOrCheck(limited, "cohort_").sessions()).isEqualTo(tables.sessions());
        } finally {
            try (Connection admin = DriverManager.getConnection(PostgresDatabase.LOCAL_URL, PostgresDatabase.LOCAL_USER, "");
                 Statement statement = admin.createStatement()) {
                statement.execute("DROP ROLE IF EXISTS " + role);
            } catch (java.sql.SQLException noLocalServer) {
                // a Testcontainers database went away with its container
            }
        }
    }

    private static SessionTables createAs(PostgresDatabase database) {
        org.postgresql.ds.PGSimpleDataSource source = new org.postgresql.ds.PGSimpleDataSource();
        source.setUrl(database.jdbcUrl());
        database.user().ifPresent(source::setUser);
        database.password().ifPresent(source::setPassword);
        try {
            return SessionTables.createOrCheck(source, "cohort_");
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
