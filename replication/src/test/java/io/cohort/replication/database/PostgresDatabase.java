package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A PostgreSQL 15 schema of its own ({@code cohort_rep_<random>}, dropped on close): on a
 * Testcontainers PostgreSQL where a Docker engine answers, else on the machine's server at
 * 127.0.0.1:5432 (database {@code test}, user {@code postgres}, trust authentication). With neither,
 * {@link #open()} fails, saying so: these tests never skip.
 */
final class PostgresDatabase implements TestDatabase {

    static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final String LOCAL_USER = "postgres";

    private final PostgreSQLContainer<?> container;
    private final String serverUrl;
    private final String user;
    private final String password;
    private final String schema = "cohort_rep_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    private PostgresDatabase(PostgreSQLContainer<?> container, String serverUrl, String user, String password) {
        this.container = container;
        this.serverUrl = serverUrl;
        this.user = user;
        this.password = password;
        admin("CREATE SCHEMA " + schema);
    }

    static PostgresDatabase open() {
        if (dockerAvailable()) {
            PostgreSQLContainer<?> container = new PostgreSQLContainer<>(DockerImageName.parse("postgres:15-alpine"));
            container.start();
            return new PostgresDatabase(container, container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        DriverManager.setLoginTimeout(5);
        try (Connection connection = DriverManager.getConnection(LOCAL_URL, LOCAL_USER, "")) {
            connection.createStatement().execute("SELECT 1");
        } catch (SQLException e) {
            throw new IllegalStateException("These tests need PostgreSQL 15: there is no Docker engine for Testcontainers, "
                    + "and no server answers at " + LOCAL_URL + " as user " + LOCAL_USER + " (" + e.getMessage()
                    + "). Start the local one, e.g. pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start", e);
        }
        return new PostgresDatabase(null, LOCAL_URL, LOCAL_USER, "");
    }

    @Override
    public String jdbcUrl() {
        return serverUrl + (serverUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    @Override
    public Optional<String> user() {
        return Optional.of(user);
    }

    @Override
    public Optional<String> password() {
        return password.isEmpty() ? Optional.empty() : Optional.of(password);
    }

    @Override
    public String description() {
        return "PostgreSQL (" + (container != null ? "Testcontainers" : "local server") + ", schema " + schema + ")";
    }

    @Override
    public void close() {
        try {
            admin("DROP SCHEMA " + schema + " CASCADE");
        } finally {
            if (container != null) {
                container.stop();
            }
        }
    }

    private void admin(String sql) {
        try (Connection connection = DriverManager.getConnection(serverUrl, user, password);
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + serverUrl, e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }
}
