package io.cohort.jpetstore.data;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Runs one parameterised statement on a connection borrowed from the pool and maps its rows.
 * Each call is its own transaction (auto-commit); multi-statement transactions use the connection directly.
 */
final class SqlRunner {
    /** Maps the current row of a result set. */
    @FunctionalInterface
    interface RowMapper<T> {
        T map(ResultSet row) throws SQLException;
    }

    private final DataSource dataSource;

    SqlRunner(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    <T> List<T> list(String sql, RowMapper<T> mapper, Object... params) {
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            bind(ps, params);
            return readAll(ps, mapper);
        } catch (SQLException e) {
            throw new DataAccessException("query failed: " + sql, e);
        }
    }

    <T> Optional<T> optional(String sql, RowMapper<T> mapper, Object... params) {
        List<T> rows = list(sql, mapper, params);
        return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
    }

    static <T> List<T> readAll(PreparedStatement ps, RowMapper<T> mapper) throws SQLException {
        List<T> rows = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                rows.add(mapper.map(rs));
            }
        }
        return rows;
    }

    static void bind(PreparedStatement ps, Object... params) throws SQLException {
        for (int i = 0; i < params.length; i++) {
            ps.setObject(i + 1, params[i]);
        }
    }

    /** True for the SQLState of a unique or primary-key violation, the same on H2 and PostgreSQL. */
    static boolean isUniqueViolation(SQLException e) {
        return "23505".equals(e.getSQLState());
    }
}
