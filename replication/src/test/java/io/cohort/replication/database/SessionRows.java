package io.cohort.replication.database;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** Reads the session tables (default prefix) of a test database directly, for assertions. */
final class SessionRows {

    private final TestDatabase database;

    SessionRows(TestDatabase database) {
        this.database = database;
    }

    /** The version in the session row, or -1 when there is no row. */
    long version(String id) {
        return single("SELECT version FROM cohort_sessions WHERE app = ? AND id = ?", id).map(Long::parseLong).orElse(-1L);
    }

    Optional<String> owner(String id) {
        return single("SELECT owner_node FROM cohort_sessions WHERE app = ? AND id = ?", id);
    }

    /** Attribute name to the session version that last wrote its row. */
    Map<String, Long> attributeVersions(String id) {
        Map<String, Long> versions = new TreeMap<>();
        try (Connection connection = database.connect();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT attr_name, version FROM cohort_session_attributes WHERE app = ? AND id = ?")) {
            select.setString(1, DatabaseNode.APP);
            select.setString(2, id);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getString(1), rows.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return versions;
    }

    int attributeRowCount(String id) {
        return attributeVersions(id).size();
    }

    void execute(String sql) {
        try (Connection connection = database.connect()) {
            connection.createStatement().execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }

    private Optional<String> single(String sql, String id) {
        try (Connection connection = database.connect(); PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, DatabaseNode.APP);
            select.setString(2, id);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(row.getString(1)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
