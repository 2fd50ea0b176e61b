package io.cohort.jpetstore.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * A PostgreSQL schema of its own ({@code cohort_test_<random>}, dropped on close), on a Testcontainers
 * PostgreSQL 15 where a Docker engine exists, else on the local server at 127.0.0.1:5432 (database test,
 * user postgres). With neither, {@link #open()} fails with a message saying how to get one: these tests
 * never skip silently.
 */
public final class PostgresDatabase implements TestDatabase {
    static final String LOCAL_URL = "jdbc:postgresql://127.0.0.1:5432/test";
    static final String LOCAL_USER = "postgres";

    private final PostgreSQLContainer<?> container;
    private final String adminUrl;
    private final String user;
    private final String password;
    private final String schema;
    private final HikariDataSource pool;

    private PostgresDatabase(PostgreSQLContainer<?> container, String adminUrl, String user, String password) {
        this.container = container;
        this.adminUrl = adminUrl;
        this.user = user;
        this.password = password;
        this.schema = "cohort_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        admin("CREATE SCHEMA " + schema);
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl());
        config.setUsername(user);
        config.setPassword(password);
        config.setMaximumPoolSize(12);
        config.setPoolName("pg-test");
        this.pool = new HikariDataSource(config);
    }

    public static PostgresDatabase open() {
        if (dockerAvailable()) {
            PostgreSQLContainer<?> container = new PostgreSQLContainer<>(DockerImageName.parse("postgres:15-alpine"));
            container.start();
            return new PostgresDatabase(container, container.getJdbcUrl(), container.getUsername(),
                    container.getPassword());
        }
        SQLException local = localServerProblem();
        if (local == null) {
            return new PostgresDatabase(null, LOCAL_URL, LOCAL_USER, "");
        }
        throw new IllegalStateException("The PostgreSQL tests need a PostgreSQL 15: there is no Docker engine for"
                + " Testcontainers, and no server answers at " + LOCAL_URL + " as user " + LOCAL_USER + " ("
                + local.getMessage() + "). Start the local one with: pg_ctlcluster --skip-systemctl-redirect"
                + " $(ls /etc/postgresql) main start", local);
    }

    @Override
    public String jdbcUrl() {
        return adminUrl + (adminUrl.contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String password() {
        return password;
    }

    @Override
    public DataSource dataSource() {
        return pool;
    }

    @Override
    public long sessionsBlockedBy(Connection holder) {
        long pid = TestDatabase.queryLong(holder, "SELECT pg_backend_pid()");
        try (Connection c = dataSource().getConnection()) {
            return TestDatabase.queryLong(c, "SELECT COUNT(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))", (int) pid);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String description() {
        return "PostgreSQL (" + (container != null ? "Testcontainers" : "local server") + ", schema " + schema + ")";
    }

    @Override
    public void close() {
        pool.close();
        try {
            admin("DROP SCHEMA " + schema + " CASCADE");
        } finally {
            if (container != null) {
                container.stop();
            }
        }
    }

    private void admin(String sql) {
        try (Connection c = DriverManager.getConnection(adminUrl, user, password);
             Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql + " failed on " + adminUrl, e);
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    private static SQLException localServerProblem() {
        DriverManager.setLoginTimeout(5);
        try (Connection c = DriverManager.getConnection(LOCAL_URL, LOCAL_USER, "")) {
            c.createStatement().execute("SELECT 1");
            return null;
        } catch (SQLException e) {
            return e;
        }
    }
}
