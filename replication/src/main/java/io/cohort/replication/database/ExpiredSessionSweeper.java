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
 * Owners normally delete what they expire; this catches sessions whose owner died. Any node may
 * sweep at any time: each deletion re-checks the condition, so sweeping twice is harmless. One run
 * deletes at most {@code limit} sessions, in one transaction. Each statement may take at most the statement timeout:
 * a row locked by a transaction that does not end (PostgreSQL waits for a lock for ever by default) fails the run
 * rather than stopping the node's sweeps, and the removals they retry, for good.
 */
final class ExpiredSessionSweeper {

    private final DataSource dataSource;
    private final SessionTables tables;
    private final int limit;
    private final int timeoutSeconds;

    ExpiredSessionSweeper(DataSource dataSource, SessionTables tables, int limit, Duration statementTimeout) {
        this.dataSource = dataSource;
        this.tables = tables;
        this.limit = limit;
        this.timeoutSeconds = (int) Math.max(1, statementTimeout.toSeconds());
    }

    /** Deletes what is due at {@code now}; how many sessions were deleted. */
    int sweep(Instant now) throws SQLException {
        long nowMillis = now.toEpochMilli();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                int deleted = 0;
                for (String[] key : candidates(connection, nowMillis)) {
                    if (delete(connection, key[0], key[1], nowMillis)) {
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

    private List<String[]> candidates(Connection connection, long now) throws SQLException {
        List<String[]> keys = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(tables.selectSweepable())) {
            select.setQueryTimeout(timeoutSeconds);
            select.setMaxRows(limit);
            select.setLong(1, now);
            select.setLong(2, now);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    keys.add(new String[] {rows.getString(1), rows.getString(2)});
                }
            }
        }
        return keys;
    }

    private boolean delete(Connection connection, String app, String id, long now) throws SQLException {
        try (PreparedStatement session = connection.prepareStatement(tables.deleteSweepable())) {
            session.setQueryTimeout(timeoutSeconds);
            session.setString(1, app);
            session.setString(2, id);
            session.setLong(3, now);
            if (session.executeUpdate() == 0) {
                return false; // touched or removed meanwhile
            }
        }
        try (PreparedStatement attributes = connection.prepareStatement(tables.deleteAttributes())) {
            attributes.setQueryTimeout(timeoutSeconds);
            attributes.setString(1, app);
            attributes.setString(2, id);
            attributes.executeUpdate();
        }
        return true;
    }
}
