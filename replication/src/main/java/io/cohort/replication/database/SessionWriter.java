package io.cohort.replication.database;

import io.cohort.replication.database.DatabaseWrite.Outcome;
import io.cohort.replication.database.DatabaseWrite.Removal;
import io.cohort.replication.database.DatabaseWrite.Store;
import io.cohort.replication.database.DatabaseWrite.Touch;
import io.cohort.replication.engine.SessionChange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;

/**
 * Writes {@link DatabaseWrite}s of one application in one transaction each call: either every
 * write's outcome is committed, or (on an {@link SQLException}) nothing is.
 *
 * <h2>Optimistic concurrency</h2>
 * A change updates the session row only where {@code owner_node} is this node and the version is
 * the one before the change (a delta) or older (a full copy). No row matched means one of
 * <ul>
 *   <li>the row is gone, or owned by another node, which loaded it ({@link Outcome#CONFLICT}: this
 *       node's live copy is stale and nothing of the change is written);</li>
 *   <li>the row is this node's but an earlier change of its own never arrived ({@link Outcome#GAP}:
 *       nothing is written, the next change must be a full copy).</li>
 * </ul>
 * A new session (one this node never wrote) is inserted instead by its full copy, unless a row appeared
 * meanwhile; a delta of such a session finds no row when its full copy failed, which is a gap. A session that got a
 * new id since its rows were written has them moved to the new id first, under the same owner check: if they are
 * no longer this node's, nothing is written under the new id either (a conflict), so a stale copy never reappears
 * there.
 * <h2>Bounded</h2>
 * A transaction ends by its {@link TransactionDeadline}: the connection is acquired within it, every statement's
 * query timeout is what is left of it, no statement starts once it passed, and the network timeout covers
 * the commit (see {@link BoundedConnections}).
 * Not thread-safe per call; stateless between calls.
 */
final class SessionWriter {

    private final BoundedConnections connections;
    private final SessionTables tables;
    private final String application;
    private final String nodeName;
    private final String host;

    SessionWriter(DataSource dataSource, SessionTables tables, String application, String nodeName, String host) {
        this.connections = new BoundedConnections(dataSource);
        this.tables = tables;
        this.application = application;
        this.nodeName = nodeName;
        this.host = host;
    }

    /**
     * Runs {@code writes} in order in one transaction and commits it.
     *
     * @param deadline when the transaction must have ended
     * @return the outcome of each write, in order
     * @throws SQLException when the transaction failed (it was rolled back); a {@link SQLTimeoutException} when
     *     the deadline passed before a statement could start
     */
    List<Outcome> writeAll(List<DatabaseWrite> writes, TransactionDeadline deadline) throws SQLException {
        try (Connection connection = connections.acquire(deadline)) {
            connection.setAutoCommit(false);
            try (Statements statements = new Statements(connection, deadline)) {
                List<Outcome> outcomes = new ArrayList<>(writes.size());
                for (DatabaseWrite write : writes) {
                    outcomes.add(apply(statements, write));
                }
                connection.commit();
                return outcomes;
            } catch (SQLException | RuntimeException e) {
                try {
                    connection.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
        }
    }

    private Outcome apply(Statements statements, DatabaseWrite write) throws SQLException {
        if (write instanceof Store store) {
            return store(statements, store);
        }
        if (write instanceof Removal removal) {
            Outcome outcome = remove(statements, removal.sessionId(), removal.reach());
            for (String formerId : removal.formerIds()) {
                if (remove(statements, formerId, Removal.Reach.OWN_ROWS) == Outcome.WRITTEN) {
                    outcome = Outcome.WRITTEN;
                }
            }
            return outcome;
        }
        Touch touch = (Touch) write;
        PreparedStatement update = statements.get(tables.touchSession());
        update.setLong(1, touch.lastAccessed().toEpochMilli());
        update.setLong(2, touch.maxInactiveMillis());
        setExpiry(update, 3, touch.lastAccessed().toEpochMilli(), touch.maxInactiveMillis());
        update.setString(4, application);
        update.setString(5, touch.sessionId());
        update.setString(6, nodeName);
        return update.executeUpdate() == 1 ? Outcome.WRITTEN : Outcome.CONFLICT;
    }

    private Outcome store(Statements statements, Store store) throws SQLException {
        boolean matched = update(statements, store);
        // the session got a new id since its rows were written: they are moved by the first write under the new id
        // (a later one finds them there), only if they are still this node's
        if (!matched && movedFromFormerId(statements, store)) {
            matched = update(statements, store);
        }
        // only a full copy may create the row: a delta whose full copy never arrived would make a partial session
        if (!matched && !(store.mayInsert() && store.full() && insert(statements, store.change()))) {
            return diagnose(statements, store);
        }
        writeAttributes(statements, store);
        return Outcome.WRITTEN;
    }

    /** Updates the session row under the owner and version check; whether it matched. */
    private boolean update(Statements statements, Store store) throws SQLException {
        SessionChange change = store.change();
        PreparedStatement update = statements.get(store.full() ? tables.updateSessionIfOlder() : tables.updateSessionIfVersion());
        long lastAccessed = change.lastAccessed().toEpochMilli();
        update.setLong(1, change.version());
        update.setString(2, host);
        update.setLong(3, lastAccessed);
        update.setLong(4, change.maxInactiveMillis());
        setExpiry(update, 5, lastAccessed, change.maxInactiveMillis());
        update.setString(6, application);
        update.setString(7, change.id());
        update.setString(8, nodeName);
        update.setLong(9, store.full() ? change.version() : change.version() - 1);
        return update.executeUpdate() > 0;
    }

    /** Moves this node's rows of the session from the newest of its former ids that has them; whether one had. */
    private boolean movedFromFormerId(Statements statements, Store store) throws SQLException {
        for (String formerId : store.renamedFrom()) {
            if (rename(statements, formerId, store.sessionId())) {
                return true;
            }
        }
        return false;
    }

    /** Moves this node's rows of a session to its new id; false if no session row under the old id is this node's. */
    private boolean rename(Statements statements, String oldId, String newId) throws SQLException {
        PreparedStatement session = statements.get(tables.renameOwnedSession());
        session.setString(1, newId);
        session.setString(2, application);
        session.setString(3, oldId);
        session.setString(4, nodeName);
        if (session.executeUpdate() == 0) {
            return false;
        }
        PreparedStatement attributes = statements.get(tables.renameAttributes());
        attributes.setString(1, newId);
        attributes.setString(2, application);
        attributes.setString(3, oldId);
        attributes.executeUpdate();
        return true;
    }

    private boolean insert(Statements statements, SessionChange change) throws SQLException {
        PreparedStatement insert = statements.get(tables.insertSessionIfAbsent());
        long lastAccessed = change.lastAccessed().toEpochMilli();
        insert.setString(1, application);
        insert.setString(2, change.id());
        insert.setLong(3, change.version());
        insert.setString(4, nodeName);
        insert.setString(5, host);
        insert.setLong(6, change.created().toEpochMilli());
        insert.setLong(7, lastAccessed);
        insert.setLong(8, change.maxInactiveMillis());
        setExpiry(insert, 9, lastAccessed, change.maxInactiveMillis());
        insert.setString(10, application);
        insert.setString(11, change.id());
        return insert.executeUpdate() == 1;
    }

    /** Why the session row did not match: another owner (or no row) is a conflict, our own older row a gap. */
    private Outcome diagnose(Statements statements, Store store) throws SQLException {
        PreparedStatement select = statements.get(tables.selectOwnerAndVersion());
        select.setString(1, application);
        select.setString(2, store.sessionId());
        try (ResultSet row = select.executeQuery()) {
            if (!row.next()) {
                return store.mayInsert() ? Outcome.GAP : Outcome.CONFLICT;
            }
            return nodeName.equals(row.getString(1)) ? Outcome.GAP : Outcome.CONFLICT;
        }
    }

    /**
     * A full copy replaces every attribute row but those of its {@link SessionChange#unsent} attributes (they keep the
     * value written before); a delta replaces the rows of the names it set or removed.
     */
    private void writeAttributes(Statements statements, Store store) throws SQLException {
        SessionChange change = store.change();
        if (store.full() && change.unsent().isEmpty()) {
            PreparedStatement deleteAll = statements.get(tables.deleteAttributes());
            deleteAll.setString(1, application);
            deleteAll.setString(2, change.id());
            deleteAll.executeUpdate();
        } else {
            Set<String> touched = new TreeSet<>(change.values().keySet());
            touched.addAll(change.removed());
            if (store.full()) {
                touched.addAll(attributeNames(statements, change.id()));
                touched.removeAll(change.unsent());
            }
            PreparedStatement delete = statements.get(tables.deleteAttribute());
            for (String name : touched) {
                delete.setString(1, application);
                delete.setString(2, change.id());
                delete.setString(3, name);
                delete.addBatch();
            }
            delete.executeBatch();
        }
        if (change.values().isEmpty()) {
            return;
        }
        PreparedStatement insert = statements.get(tables.insertAttribute());
        for (Map.Entry<String, byte[]> value : change.values().entrySet()) {
            insert.setString(1, application);
            insert.setString(2, change.id());
            insert.setString(3, value.getKey());
            insert.setBytes(4, value.getValue());
            insert.setLong(5, change.version());
            insert.addBatch();
        }
        insert.executeBatch();
    }

    /** The names of the session's attribute rows. */
    private Set<String> attributeNames(Statements statements, String sessionId) throws SQLException {
        PreparedStatement select = statements.get(tables.selectAttributeNames());
        select.setString(1, application);
        select.setString(2, sessionId);
        Set<String> names = new TreeSet<>();
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    /** Deletes the session row ({@code reach} says whose) and the attribute rows left without one. */
    private Outcome remove(Statements statements, String sessionId, Removal.Reach reach) throws SQLException {
        PreparedStatement delete = statements.get(reach == Removal.Reach.ANY_OWNER ? tables.deleteSession()
                : tables.deleteOwnedSession());
        delete.setString(1, application);
        delete.setString(2, sessionId);
        if (reach == Removal.Reach.OWN_ROWS) {
            delete.setString(3, nodeName);
        }
        int rows = delete.executeUpdate();
        PreparedStatement orphans = statements.get(tables.deleteOrphanedAttributes());
        orphans.setString(1, application);
        orphans.setString(2, sessionId);
        orphans.setString(3, application);
        orphans.setString(4, sessionId);
        orphans.executeUpdate();
        return rows == 1 ? Outcome.WRITTEN : Outcome.SKIPPED;
    }

    static void setExpiry(PreparedStatement statement, int index, long lastAccessed, long maxInactiveMillis)
            throws SQLException {
        if (maxInactiveMillis > 0) {
            statement.setLong(index, lastAccessed + maxInactiveMillis);
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }

    /**
     * The prepared statements of one transaction, each prepared once; each use gets what is left of the deadline as
     * its query timeout, and none is handed out once the deadline passed.
     */
    static final class Statements implements AutoCloseable {
        private final Connection connection;
        private final TransactionDeadline deadline;
        private final Map<String, Prepared> prepared = new HashMap<>();

        /** A statement and the query timeout last given to it (setting an unchanged one costs H2 a command). */
        private static final class Prepared {
            final PreparedStatement statement;
            int timeoutSeconds;

            Prepared(PreparedStatement statement) {
                this.statement = statement;
            }
        }

        Statements(Connection connection, TransactionDeadline deadline) {
            this.connection = connection;
            this.deadline = deadline;
        }

        PreparedStatement get(String sql) throws SQLException {
            if (deadline.passed()) {
                throw new SQLTimeoutException("the transaction's budget of " + deadline.budget() + " is spent");
            }
            Prepared entry = prepared.get(sql);
            if (entry == null) {
                entry = new Prepared(connection.prepareStatement(sql));
                prepared.put(sql, entry);
            }
            int timeout = deadline.querySeconds();
            if (entry.timeoutSeconds != timeout) {
                entry.statement.setQueryTimeout(timeout);
                entry.timeoutSeconds = timeout;
            }
            return entry.statement;
        }

        @Override
        public void close() throws SQLException {
            SQLException first = null;
            for (Prepared entry : prepared.values()) {
                try {
                    entry.statement.close();
                } catch (SQLException e) {
                    first = first == null ? e : first;
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
