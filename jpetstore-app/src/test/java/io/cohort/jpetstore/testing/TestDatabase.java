package io.cohort.jpetstore.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/** A pooled, empty database of its own for one test class; closing it throws it away. */
public interface TestDatabase extends AutoCloseable {
    DataSource dataSource();

    /** The JDBC URL a container's own pool would use to reach this database. */
    String jdbcUrl();

    /** The user for {@link #jdbcUrl()}. */
    String user();

    /** The password for {@link #jdbcUrl()} (empty with trust authentication). */
    String password();

    /** "H2" or "PostgreSQL (...)", for messages. */
    String description();

    @Override
    void close();

    /** How many of this database's sessions are waiting for a lock that {@code holder}'s session holds. */
    long sessionsBlockedBy(Connection holder);

    /**
     * A connection whose open transaction holds the lock on {@code itemId}'s row of {@code item} ({@code FOR UPDATE}),
     * as an order being placed does; roll it back (or close it) to let go.
     */
    default Connection lockItemRow(String itemId) throws SQLException {
        Connection c = dataSource().getConnection();
        try {
            c.setAutoCommit(false);
            try (java.sql.PreparedStatement lock = c.prepareStatement("SELECT stock FROM item WHERE item_id = ? FOR UPDATE")) {
                lock.setString(1, itemId);
                lock.executeQuery().close();
            }
            return c;
        } catch (SQLException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    /** Waits, at most 20 s, until one of this database's sessions waits for a lock that {@code holder} holds. */
    default void awaitSessionBlockedBy(Connection holder) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
        while (sessionsBlockedBy(holder) == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no session waited for a lock of the holder within 20 s");
            }
            Thread.sleep(20);
        }
    }

    /** The first column of the first row of a query on {@code c}, as a long. */
    static long queryLong(Connection c, String sql, Object... parameters) {
        try (java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                ps.setObject(i + 1, parameters[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("no row: " + sql);
                }
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** Runs a statement for test set-up or inspection. */
    default void execute(String sql) {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    /** The first column of the first row of a query, as a long. */
    default long queryLong(String sql) {
        try (Connection c = dataSource().getConnection(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            if (!rs.next()) {
                throw new IllegalStateException("no row: " + sql);
            }
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
