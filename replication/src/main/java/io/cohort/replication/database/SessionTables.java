package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javax.sql.DataSource;

/**
 * The two session tables and every SQL statement the database transport runs on them. The SQL is
 * portable between H2 2.x and PostgreSQL; the only difference is the type of serialized values,
 * chosen from {@link DatabaseMetaData#getDatabaseProductName()}.
 *
 * <pre>
 * &lt;prefix&gt;sessions            (app, id, version, owner_node, host, created, last_accessed,
 *                               max_inactive_ms, expiry)                 PRIMARY KEY (app, id)
 * &lt;prefix&gt;session_attributes  (app, id, attr_name, attr_value, version) PRIMARY KEY (app, id, attr_name)
 * </pre>
 * Times are epoch milliseconds ({@code BIGINT}), so no time zone or timestamp precision differs
 * between databases. {@code expiry} is {@code last_accessed + max_inactive_ms} ({@code NULL} for a
 * session that never expires) and indexed for the sweeper. An attribute row's {@code version} is the
 * session version that last wrote it, so the rows show what each change touched.
 *
 * @param prefix the table-prefix (validated by the configuration: letters, digits, '_')
 * @param binaryType the column type of serialized values in this database
 */
record SessionTables(String prefix, String binaryType) {

    SessionTables {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(binaryType, "binaryType");
    }

    /** The binary column type for a database product: BYTEA (PostgreSQL), VARBINARY (H2), else BLOB. */
    static String binaryTypeFor(String productName) {
        String product = productName.toLowerCase(Locale.ROOT);
        if (product.contains("postgres")) {
            return "BYTEA";
        }
        if (product.equals("h2")) {
            return "VARBINARY";
        }
        return "BLOB";
    }

    /**
     * Creates the tables and the expiry index unless the database's catalog already lists all three, then checks the
     * tables' columns.
     */
    static SessionTables createOrCheck(DataSource dataSource, String prefix) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            SessionTables tables = new SessionTables(prefix,
                    binaryTypeFor(connection.getMetaData().getDatabaseProductName()));
            // where the tables and their index exist, no DDL: PostgreSQL's CREATE ... IF NOT EXISTS still takes a lock
            // that waits behind every open write of the cluster (and holds up every write after it), and needs rights
            // on the schema and the table that a user made to only read and write the tables lacks
            if (!tables.exist(connection)) {
                try {
                    tables.create(connection);
                } catch (SQLException e) {
                    // another node may be creating them at this very moment (PostgreSQL's IF NOT EXISTS races)
                    connection.rollback();
                    tables.create(connection);
                }
            }
            tables.check(connection);
            return tables;
        }
    }

    /** Whether both tables and the expiry index exist in the connection's schema (as the database's catalog says). */
    private boolean exist(Connection connection) throws SQLException {
        DatabaseMetaData catalog = connection.getMetaData();
        String schema = connection.getSchema();
        return hasTable(catalog, schema, sessions()) && hasTable(catalog, schema, attributes())
                && hasIndex(catalog, schema, sessions(), prefix + "sessions_expiry");
    }

    private static boolean hasTable(DatabaseMetaData catalog, String schema, String table) throws SQLException {
        String stored = stored(catalog, table);
        try (ResultSet tables = catalog.getTables(null, schema, stored, null)) {
            while (tables.next()) {
                if (tables.getString("TABLE_NAME").equals(stored)) { // the name is a pattern: '_' matches any letter
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasIndex(DatabaseMetaData catalog, String schema, String table, String index)
            throws SQLException {
        String stored = stored(catalog, index);
        try (ResultSet indexes = catalog.getIndexInfo(null, schema, stored(catalog, table), false, true)) {
            while (indexes.next()) {
                if (stored.equals(indexes.getString("INDEX_NAME"))) {
                    return true;
                }
            }
        }
        return false;
    }

    /** An unquoted identifier as the database stores it: PostgreSQL folds to lower case, H2 to upper. */
    private static String stored(DatabaseMetaData catalog, String identifier) throws SQLException {
        if (catalog.storesUpperCaseIdentifiers()) {
            return identifier.toUpperCase(Locale.ROOT);
        }
        if (catalog.storesLowerCaseIdentifiers()) {
            return identifier.toLowerCase(Locale.ROOT);
        }
        return identifier;
    }

    private void create(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String ddl : ddl()) {
                statement.execute(ddl);
            }
            connection.commit();
        }
    }

    List<String> ddl() {
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + sessions() + " ("
                        + "app VARCHAR(255) NOT NULL, id VARCHAR(255) NOT NULL, version BIGINT NOT NULL, "
                        + "owner_node VARCHAR(255) NOT NULL, host VARCHAR(255) NOT NULL, created BIGINT NOT NULL, "
                        + "last_accessed BIGINT NOT NULL, max_inactive_ms BIGINT NOT NULL, expiry BIGINT, "
                        + "PRIMARY KEY (app, id))",
                "CREATE INDEX IF NOT EXISTS " + prefix + "sessions_expiry ON " + sessions() + " (expiry)",
                "CREATE TABLE IF NOT EXISTS " + attributes() + " ("
                        + "app VARCHAR(255) NOT NULL, id VARCHAR(255) NOT NULL, attr_name VARCHAR(1024) NOT NULL, "
                        + "attr_value " + binaryType + " NOT NULL, version BIGINT NOT NULL, "
                        + "PRIMARY KEY (app, id, attr_name))");
    }

    /** Fails with a clear message when a table of the same name exists with other columns. */
    private void check(Connection connection) throws SQLException {
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT app, id, version, owner_node, host, created, last_accessed, "
                    + "max_inactive_ms, expiry FROM " + sessions() + " WHERE 1 = 0").close();
            statement.executeQuery("SELECT app, id, attr_name, attr_value, version FROM " + attributes()
                    + " WHERE 1 = 0").close();
        } catch (SQLException e) {
            throw new SQLException("the session tables " + sessions() + " and " + attributes()
                    + " exist but do not have the columns Cohort expects (drop them or choose another table-prefix): "
                    + e.getMessage(), e.getSQLState(), e);
        }
    }

    String sessions() {
        return prefix + "sessions";
    }

    String attributes() {
        return prefix + "session_attributes";
    }

    // --- session rows ---

    /** Version and owner checked: a delta applies only on top of this node's previous version. */
    String updateSessionIfVersion() {
        return "UPDATE " + sessions() + " SET version = ?, host = ?, last_accessed = ?, max_inactive_ms = ?, expiry = ?"
                + " WHERE app = ? AND id = ? AND owner_node = ? AND version = ?";
    }

    /** Owner checked, any older version: a full copy replaces whatever this node wrote before. */
    String updateSessionIfOlder() {
        return "UPDATE " + sessions() + " SET version = ?, host = ?, last_accessed = ?, max_inactive_ms = ?, expiry = ?"
                + " WHERE app = ? AND id = ? AND owner_node = ? AND version < ?";
    }

    /** Inserts a session row unless one exists (a new session's first write). */
    String insertSessionIfAbsent() {
        return "INSERT INTO " + sessions()
                + " (app, id, version, owner_node, host, created, last_accessed, max_inactive_ms, expiry)"
                + " SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM " + sessions()
                + " WHERE app = ? AND id = ?)";
    }

    String touchSession() {
        return "UPDATE " + sessions() + " SET last_accessed = ?, max_inactive_ms = ?, expiry = ? WHERE app = ? AND id = ?"
                + " AND owner_node = ?";
    }

    String selectOwnerAndVersion() {
        return "SELECT owner_node, version FROM " + sessions() + " WHERE app = ? AND id = ?";
    }

    String selectSession() {
        return "SELECT version, owner_node, created, last_accessed, max_inactive_ms FROM " + sessions()
                + " WHERE app = ? AND id = ?";
    }

    String sessionExists() {
        return "SELECT last_accessed, max_inactive_ms FROM " + sessions() + " WHERE app = ? AND id = ?";
    }

    /** Takes ownership of the version that was read (so a concurrent write by the old owner is noticed). */
    String claimSession() {
        return "UPDATE " + sessions() + " SET owner_node = ?, host = ? WHERE app = ? AND id = ? AND version = ?";
    }

    /**
     * Ends a session another node may end ({@code SessionLoader.endable}), at the version that was read: the one node
     * whose deletion takes the row ends it through the application. The row must still be endable: expired beyond
     * doubt at now, past its interval once more at now, and by a tenth of it more before a given time (parameters:
     * app, id, version, now, now, that time).
     */
    String deleteEndable() {
        return "DELETE FROM " + sessions() + " WHERE app = ? AND id = ? AND version = ?"
                + " AND expiry + max_inactive_ms / 4 < ? AND expiry + max_inactive_ms < ?"
                + " AND expiry + max_inactive_ms / 10 < ?";
    }

    /**
     * An application's sessions another node may end: expired before a given time (the index's condition), expired
     * beyond doubt and past their interval once more at now, and by a tenth of it more before that time (parameters:
     * app, that time, now, now, that time).
     */
    String selectEndable() {
        return "SELECT id FROM " + sessions() + " WHERE app = ? AND expiry < ? AND expiry + max_inactive_ms / 4 < ?"
                + " AND expiry + max_inactive_ms < ? AND expiry + max_inactive_ms / 10 < ?";
    }

    /** Removal by the owner only: a stale node's expiry must not delete the new owner's session. */
    String deleteOwnedSession() {
        return "DELETE FROM " + sessions() + " WHERE app = ? AND id = ? AND owner_node = ?";
    }

    /** Removal whoever owns the row: the application invalidated the session (the user signed off). */
    String deleteSession() {
        return "DELETE FROM " + sessions() + " WHERE app = ? AND id = ?";
    }

    /** Gives a session row this node owns a new id (parameters: new id, app, old id, owner). */
    String renameOwnedSession() {
        return "UPDATE " + sessions() + " SET id = ? WHERE app = ? AND id = ? AND owner_node = ?";
    }

    /** Moves a session's attribute rows to its new id (parameters: new id, app, old id). */
    String renameAttributes() {
        return "UPDATE " + attributes() + " SET id = ? WHERE app = ? AND id = ?";
    }

    /**
     * Expired candidates: past expiry by at least their inactive interval again before one given time, and by a tenth
     * of it before another (parameters: the first time, the first time, the other time).
     */
    String selectSweepable() {
        return "SELECT app, id FROM " + sessions() + " WHERE expiry < ? AND expiry + max_inactive_ms < ?"
                + " AND expiry + max_inactive_ms / 10 < ?";
    }

    /** Parameters: app, id, and the two times of {@link #selectSweepable}. */
    String deleteSweepable() {
        return "DELETE FROM " + sessions() + " WHERE app = ? AND id = ? AND expiry + max_inactive_ms < ?"
                + " AND expiry + max_inactive_ms / 10 < ?";
    }

    // --- attribute rows ---

    String selectAttributes() {
        return "SELECT attr_name, attr_value FROM " + attributes() + " WHERE app = ? AND id = ?";
    }

    String selectAttributeNames() {
        return "SELECT attr_name FROM " + attributes() + " WHERE app = ? AND id = ?";
    }

    String insertAttribute() {
        return "INSERT INTO " + attributes() + " (app, id, attr_name, attr_value, version) VALUES (?, ?, ?, ?, ?)";
    }

    String deleteAttribute() {
        return "DELETE FROM " + attributes() + " WHERE app = ? AND id = ? AND attr_name = ?";
    }

    String deleteAttributes() {
        return "DELETE FROM " + attributes() + " WHERE app = ? AND id = ?";
    }

    /** Attribute rows of a session whose session row is gone. */
    String deleteOrphanedAttributes() {
        return "DELETE FROM " + attributes() + " WHERE app = ? AND id = ? AND NOT EXISTS (SELECT 1 FROM "
                + sessions() + " WHERE app = ? AND id = ?)";
    }
}
