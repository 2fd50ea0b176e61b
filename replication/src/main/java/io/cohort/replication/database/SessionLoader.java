package io.cohort.replication.database;

import io.cohort.session.StoredSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Reads a session of one application from the database and makes this node its owner. The claim
 * ({@code owner_node} = this node, version unchanged) is conditional on the version that was read,
 * so a change the old owner commits between the reads is noticed and the read repeated; after the
 * claim, the old owner's next write matches no row and it learns it lost the session.
 *
 * <p>A session that expired beyond doubt ({@link StoredSession#expiredBeyondDoubtAt}) is still its owner's to end
 * until {@link #endable}: a load refuses it meanwhile. After that its owner evidently died (or cannot reach the
 * database), and a load, or {@link #loadToEnd}, claims it by deleting its rows at the version that was read, while they
 * are still endable (a touch meanwhile keeps them): of several nodes that load it at once (a request at one, the
 * sweep of {@link #endable(Instant, int, TransactionDeadline)} at others) exactly one gets it, and ends it through the
 * application, so its listeners hear of the end once.
 */
final class SessionLoader {

    /** How often a load is repeated when the session keeps changing under it. */
    private static final int ATTEMPTS = 3;
    /**
     * How long after its row's expiry, and the tenth of its interval by which the row's last access may lag the
     * owner's, a live owner has surely ended a session itself: its sweep (once a minute) ends the sessions whose
     * inactivity timer went off, and this leaves room for a last long request, a slow sweep, and clocks up to a minute
     * apart.
     */
    static final Duration OWNER_ENDS_WITHIN = Duration.ofMinutes(3);

    /**
     * A session found and claimed.
     *
     * @param session       its state
     * @param previousOwner the node that owned it before (this node's name if it already did)
     * @param ended         whether it was claimed to be ended: its rows are deleted ({@link #endable})
     */
    record Loaded(StoredSession session, String previousOwner, boolean ended) {

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
     * Whether another node may end the session at {@code now}: its owner, were it alive, would have ended it {@link
     * #OWNER_ENDS_WITHIN} ago, and it has gone untouched for twice its interval (as long as the sweeper always left a
     * session in use: a request that holds its session that long, an event stream, is not touched meanwhile).
     */
    static boolean endable(StoredSession session, Instant now) {
        return session.expiredBeyondDoubtAt(now) && session.isExpiredAt(now.minusMillis(session.maxInactiveMillis()))
                && session.isExpiredAt(now.minus(OWNER_ENDS_WITHIN).minusMillis(session.maxInactiveMillis() / 10));
    }

    /**
     * The session, claimed for this node; empty when there is none, or it kept changing. A session that expired
     * beyond doubt ({@link StoredSession#expiredBeyondDoubtAt}) is refused until it is {@link #endable}, then returned,
     * for this node to end, only if this node's deletion of its rows took them (another node's load may have taken
     * them first).
     */
    Optional<Loaded> load(String id, Instant now, TransactionDeadline deadline) throws SQLException {
        return load(id, now, deadline, false);
    }

    /** {@link #load}, but only a session that is {@link #endable}: nothing else is claimed. */
    Optional<Loaded> loadToEnd(String id, Instant now, TransactionDeadline deadline) throws SQLException {
        return load(id, now, deadline, true);
    }

    private Optional<Loaded> load(String id, Instant now, TransactionDeadline deadline, boolean onlyToEnd)
            throws SQLException {
        try (Connection connection = connections.acquire(deadline)) {
            connection.setAutoCommit(false);
            try {
                for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                    Optional<Loaded> read = read(connection, id, deadline);
                    // the row's last access lags the owner's by up to a tenth of the interval (touches): expired
                    // only beyond that doubt; the node taking it over decides the rest
                    StoredSession session = read.map(Loaded::session).orElse(null);
                    boolean toEnd = session != null && endable(session, now);
                    if (session == null || (session.expiredBeyondDoubtAt(now) || onlyToEnd) && !toEnd) {
                        connection.commit();
                        return Optional.empty(); // none, or still its owner's to end (or, to end, not expired)
                    }
                    if (toEnd ? deleteToEnd(connection, session, now, deadline) : claim(connection, session, deadline)) {
                        connection.commit();
                        return Optional.of(new Loaded(session, read.get().previousOwner(), toEnd));
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
        return Optional.of(new Loaded(new StoredSession(id, version, created, lastAccessed, maxInactive, attributes), owner,
                false));
    }

    /**
     * Up to {@code limit} ids of this application's sessions that are {@link #endable} at {@code now}: those of owners
     * that died, in practice (a live owner ends its sessions when they expire, and deletes their rows).
     */
    List<String> endable(Instant now, int limit, TransactionDeadline deadline) throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = connections.acquire(deadline);
             PreparedStatement select = connection.prepareStatement(tables.selectEndable())) {
            select.setQueryTimeout(deadline.querySeconds());
            select.setMaxRows(limit);
            select.setString(1, application);
            long ownerEndedBy = now.minus(OWNER_ENDS_WITHIN).toEpochMilli();
            select.setLong(2, ownerEndedBy);
            select.setLong(3, now.toEpochMilli());
            select.setLong(4, now.toEpochMilli());
            select.setLong(5, ownerEndedBy);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
            }
        }
        return ids;
    }

    /**
     * Deletes the session's rows if they are still at the version read and still {@link #endable} (a touch, which
     * keeps the version, may have refreshed them meanwhile); whether this node took them.
     */
    private boolean deleteToEnd(Connection connection, StoredSession session, Instant now, TransactionDeadline deadline)
            throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(tables.deleteEndable())) {
            delete.setQueryTimeout(deadline.querySeconds());
            delete.setString(1, application);
            delete.setString(2, session.id());
            delete.setLong(3, session.version());
            delete.setLong(4, now.toEpochMilli());
            delete.setLong(5, now.toEpochMilli());
            delete.setLong(6, now.minus(OWNER_ENDS_WITHIN).toEpochMilli());
            if (delete.executeUpdate() != 1) {
                return false;
            }
        }
        try (PreparedStatement attributes = connection.prepareStatement(tables.deleteAttributes())) {
            attributes.setQueryTimeout(deadline.querySeconds());
            attributes.setString(1, application);
            attributes.setString(2, session.id());
            attributes.executeUpdate();
        }
        return true;
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
