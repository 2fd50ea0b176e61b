package io.cohort.jpetstore.testing;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import javax.sql.DataSource;

/** A private in-memory H2 database behind a HikariCP pool. */
public final class H2Database implements TestDatabase {
    private final String url;
    private final HikariDataSource pool;

    private H2Database(String url, HikariDataSource pool) {
        this.url = url;
        this.pool = pool;
    }

    public static H2Database open() {
        HikariConfig config = new HikariConfig();
        // a statement waits long for a row lock, as on PostgreSQL (which waits without end; H2 gives up after 2 s): a test
        // that holds a row to keep a request waiting must not race a timeout on a busy machine
        String url = "jdbc:h2:mem:jpetstore-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000";
        config.setJdbcUrl(url);
        config.setUsername("sa");
        config.setPassword("");
        config.setMaximumPoolSize(12);
        config.setPoolName("h2-test");
        return new H2Database(url, new HikariDataSource(config));
    }

    /** The JDBC URL, for tools that open their own connections. */
    public String url() {
        return url;
    }

    @Override
    public String jdbcUrl() {
        return url;
    }

    @Override
    public String user() {
        return "sa";
    }

    @Override
    public String password() {
        return "";
    }

    @Override
    public DataSource dataSource() {
        return pool;
    }

    @Override
    public long sessionsBlockedBy(Connection holder) {
        long session = TestDatabase.queryLong(holder, "SELECT SESSION_ID()");
        try (Connection c = pool.getConnection()) {
            return TestDatabase.queryLong(c, "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID = ?", session);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String description() {
        return "H2";
    }

    @Override
    public void close() {
        pool.close();
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement st = c.createStatement()) {
            st.execute("SHUTDOWN");
        } catch (SQLException e) {
            throw new IllegalStateException("shutting H2 down failed", e);
        }
    }
}
