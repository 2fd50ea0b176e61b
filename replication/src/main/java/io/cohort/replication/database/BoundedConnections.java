package io.cohort.replication.database;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.Executor;
import javax.sql.DataSource;

/**
 * Hands out connections of the session database for a transaction bounded by a {@link TransactionDeadline}:
 * the wait for a free pooled connection ends with the deadline (HikariCP's pool otherwise waits its
 * pool-wide {@code connection-timeout}), and the connection comes with a network timeout covering the
 * rest of the transaction, so a database that stops answering cannot hold the caller in a socket read
 * (the pool restores the connection's own network timeout when it is returned). A driver without
 * network timeouts (an embedded database has no network) leaves the statements' query timeouts as the
 * only bound. Thread-safe.
 */
final class BoundedConnections {

    /** The driver may run its network-timeout work here; PostgreSQL's does none, others run it at once. */
    private static final Executor IN_CALLER = Runnable::run;

    private final DataSource dataSource;

    BoundedConnections(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /**
     * A connection for a transaction that must end by {@code deadline}, with its network timeout set.
     *
     * @throws SQLException when no connection became free before the deadline
     *     ({@link java.sql.SQLTransientConnectionException}) or the database refused one
     */
    Connection acquire(TransactionDeadline deadline) throws SQLException {
        Connection connection = pool() instanceof HikariPool pool
                ? pool.getConnection(deadline.remainingMillis())
                : dataSource.getConnection();
        try {
            connection.setNetworkTimeout(IN_CALLER, deadline.networkTimeoutMillis());
        } catch (SQLFeatureNotSupportedException | UnsupportedOperationException e) {
            // no network to time out: the query timeouts bound the transaction
        } catch (SQLException | RuntimeException e) {
            try {
                connection.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return connection;
    }

    /**
     * HikariCP's pool once started (it starts with its first connection when configured by setters); none once
     * closed, so the data source itself refuses the connection, saying so.
     */
    private Object pool() {
        return dataSource instanceof HikariDataSource hikari && !hikari.isClosed() ? hikari.getHikariPoolMXBean() : null;
    }
}
