package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Deletes sessions of every application whose owner stopped touching them long ago: rows whose
 * expiry passed by their inactive interval once more ({@code last_accessed + 2 × max_inactive}), so
 * a live session (its owner refreshes the row at least every tenth of the interval) is never swept.
 * Owners normally delete what they expire, and the sessions of an owner that died are ended through the application
 * by a node that serves it, once they are {@link SessionLoader#endable}; so a row is swept only once it has been
 * endable for {@link #ENDABLE_FOR} too (the nodes' sweeps run once a minute). This catches the rest: those of
 * applications no node serves any more, and those a node failed to end. Any node may
 * sweep at any time: each deletion re-checks the condition, so sweeping twice is harmless. One run
 * deletes at most {@code limit} sessions, in one transaction, which must end within the run's budget
 * ({@link TransactionDeadline}): a row locked by a transaction that does not end (PostgreSQL waits for a lock for
 * ever by default), or a database that stops answering, fails the run rather than stopping the node's sweeps, and
 * the removals they retry, for good.
 */
final class ExpiredSessionSweeper {

    /** How long a row stays after it became {@link SessionLoader#endable}, for a node to end it through the application. */
    static final Duration ENDABLE_FOR = Duration.ofMinutes(2);

    private final BoundedConnections connections;
    private final SessionTables tables;
    private final int limit;
    private final Duration budget;

    ExpiredSessionSweeper(DataSource dataSource, SessionTables tables, int limit, Duration budget) {
        this.connections = new BoundedConnections(dataSource);
        this.tables = tables;
        this.limit = limit;
        this.budget = budget;
    }

    /**
     * The time before which a row's expiry, plus its interval, must lie for the row to have gone untouched for twice its
     * interval {@link #ENDABLE_FOR} ago (one of the conditions of {@link SessionLoader#endable}).
     */
    private static long untouchedBy(long now) {
        return now - ENDABLE_FOR.toMillis();
    }

    /**
     * The time before which a row's expiry, plus a tenth of its interval, must lie for its owner to have ended it
     * {@link SessionLoader#OWNER_ENDS_WITHIN} before {@link #ENDABLE_FOR} ago (the other condition).
     */
    private static long endableBy(long now) {
        return now - SessionLoader.OWNER_ENDS_WITHIN.plus(ENDABLE_FOR).toMillis();
    }

    /** Deletes what is due at {@code now}; how many sessions were deleted. */
    int sweep(Instant now) throws SQLException {
        long nowMillis = now.toEpochMilli();
        TransactionDeadline deadline = TransactionDeadline.after(budget);
        try (Connection connection = connections.acquire(deadline)) {
            connection.setAutoCommit(false);
            try {
                int deleted = 0;
                for (String[] key : candidates(connection, nowMillis, deadline)) {
                    if (deadline.passed()) {
                        break; // what was deleted so far is committed; the next run goes on
                    }
                    if (delete(connection, key[0], key[1], nowMillis, deadline)) {
                        deleted++;
                    }
                }
                connection.commit();
                return deleted;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    private List<String[]> candidates(Connection connection, long now, TransactionDeadline deadline) throws SQLException {
        List<String[]> keys = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(tables.selectSweepable())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setMaxRows(limit);
            select.setLong(1, untouchedBy(now));
            select.setLong(2, untouchedBy(now));
            select.setLong(3, endableBy(now));
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    keys.add(new String[] {rows.getString(1), rows.getString(2)});
                }
            }
        }
        return keys;
    }

    private boolean delete(Connection connection, String app, String id, long now, TransactionDeadline deadline)
            throws SQLException {
        try (PreparedStatement session = connection.prepareStatement(tables.deleteSweepable())) {
            session.setQueryTimeout(deadline.querySeconds());
            session.setString(1, app);
            session.setString(2, id);
            session.setLong(3, untouchedBy(now));
            session.setLong(4, endableBy(now));
            if (session.executeUpdate() == 0) {
                return false; // touched or removed meanwhile
            }
        }
        try (PreparedStatement attributes = connection.prepareStatement(tables.deleteAttributes())) {
            attributes.setQueryTimeout(deadline.querySeconds());
            attributes.setString(1, app);
            attributes.setString(2, id);
            attributes.executeUpdate();
        }
        return true;
    }
}
