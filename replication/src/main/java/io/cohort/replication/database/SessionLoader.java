package io.cohort.replication.database;

import io.cohort.session.StoredSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads a session of one application from the database and makes this node its owner. The claim
 * ({@code owner_node} = this node, version unchanged) is conditional on the version that was read,
 * so a change the old owner commits between the reads is noticed and the read repeated; after the
 * claim, the old owner's next write matches no row and it learns it lost the session.
 */
final class SessionLoader {

    /** How often a load is repeated when the session keeps changing under it. */
    private static final int ATTEMPTS = 3;

    /**
     * A session found and claimed.
     *
     * @param session       its state
     * @param previousOwner the node that owned it before (this node's name if it already did)
     */
    record Loaded(StoredSession session, String previousOwner) {

        /** What reading it took from the database, estimated as {@link DatabaseWrite} estimates writes. */
        long estimatedBytes() {
            return DatabaseWrite.ROW_BYTES + DatabaseWrite.attributeRowBytes(session.attributes());
        }
    }

    private final BoundedConnections connections;
    private final SessionTables tables;
    private final String application;
    private final String nodeName;
    private final String host;

    SessionLoader(DataSource dataSource, SessionTables tables, String application, String nodeName, String host) {
        this.connections = new BoundedConnections(dataSource);
        this.tables = tables;
        this.application = application;
        this.nodeName = nodeName;
        this.host = host;
    }

    String nodeName() {
        return nodeName;
    }

    /**
     * The session, claimed for this node; empty when there is none, it expired beyond doubt
     * ({@link StoredSession#expiredBeyondDoubtAt}), or it kept changing.
     */
    Optional<Loaded> load(String id, Instant now, TransactionDeadline deadline) throws SQLException {
        try (Connection connection = connections.acquire(deadline)) {
            connection.setAutoCommit(false);
            try {
                for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                    Optional<Loaded> read = read(connection, id, deadline);
                    // the row's last access lags the owner's by up to a tenth of the interval (touches): expired
                    // only beyond that doubt; the node taking it over decides the rest
                    if (read.isEmpty() || read.get().session().expiredBeyondDoubtAt(now)) {
                        connection.commit();
                        return Optional.empty();
                    }
                    if (claim(connection, read.get().session(), deadline)) {
                        connection.commit();
                        return read;
                    }
                    connection.rollback();
                }
                return Optional.empty();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        }
    }

    /**
     * Whether a row of the session exists that {@link #load} would not refuse as expired beyond doubt: the id is in
     * use. A row that expired beyond doubt and awaits the sweeper is not: the servlet container, told otherwise, would
     * give a new session that very id, whose row (another's, or older) it could then never write.
     */
    boolean exists(String id, Instant now, TransactionDeadline deadline) throws SQLException {
        try (Connection connection = connections.acquire(deadline);
             PreparedStatement select = connection.prepareStatement(tables.sessionExists())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setString(1, application);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next()
                        && !StoredSession.expiredBeyondDoubt(Instant.ofEpochMilli(row.getLong(1)), row.getLong(2), now);
            }
        }
    }

    /** The node that owns the session's row; empty when there is no row. */
    Optional<String> owner(String id, TransactionDeadline deadline) throws SQLException {
        try (Connection connection = connections.acquire(deadline);
             PreparedStatement select = connection.prepareStatement(tables.selectOwnerAndVersion())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setString(1, application);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        }
    }

    private Optional<Loaded> read(Connection connection, String id, TransactionDeadline deadline) throws SQLException {
        long version;
        String owner;
        Instant created;
        Instant lastAccessed;
        long maxInactive;
        try (PreparedStatement select = connection.prepareStatement(tables.selectSession())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setString(1, application);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return Optional.empty();
                }
                version = row.getLong(1);
                owner = row.getString(2);
                created = Instant.ofEpochMilli(row.getLong(3));
                lastAccessed = Instant.ofEpochMilli(row.getLong(4));
                maxInactive = row.getLong(5);
            }
        }
        Map<String, byte[]> attributes = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(tables.selectAttributes())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setString(1, application);
            select.setString(2, id);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    attributes.put(rows.getString(1), rows.getBytes(2));
                }
            }
        }
        return Optional.of(new Loaded(new StoredSession(id, version, created, lastAccessed, maxInactive, attributes), owner));
    }

    private boolean claim(Connection connection, StoredSession session, TransactionDeadline deadline) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(tables.claimSession())) {
            update.setQueryTimeout(deadline.querySeconds());
            update.setString(1, nodeName);
            update.setString(2, host);
            update.setString(3, application);
            update.setString(4, session.id());
            update.setLong(5, session.version());
            return update.executeUpdate() == 1;
        }
    }
}
