package io.cohort.jpetstore.data;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * Creates the tables of {@code schema.sql} where they do not exist, and adds to tables made by an earlier version
 * what this one added (see the script). Idempotent, so every node runs it;
 * two nodes creating the same table at the same instant can still collide in PostgreSQL's catalog, so a
 * failed attempt is retried a few times before giving up.
 */
final class Schema {
    private static final String RESOURCE = "schema.sql";
    private static final int ATTEMPTS = 5;

    private Schema() {
    }

    static void install(DataSource dataSource) {
        List<String> statements = statements();
        for (int attempt = 1; ; attempt++) {
            try (Connection c = connect(dataSource); Statement st = c.createStatement()) {
                c.setAutoCommit(true);
                for (String sql : statements) {
                    st.execute(sql);
                }
                return;
            } catch (SQLException e) {
                if (attempt == ATTEMPTS) {
                    throw new DataAccessException("creating the JPetStore schema failed", e);
                }
                Pause.briefly(attempt);
            }
        }
    }

    /** A connection, failing at once (no retry) when the database cannot be reached at all. */
    private static Connection connect(DataSource dataSource) {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw new DataAccessException("cannot connect to the JPetStore database", e);
        }
    }

    static List<String> statements() {
        return statements(RESOURCE);
    }

    /** The statements of a script next to this class: one per {@code ;} at a line's end, without comment lines. */
    static List<String> statements(String resource) {
        String text;
        try (InputStream in = Schema.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the classpath");
            }
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + resource, e);
        }
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("--")) {
                continue;
            }
            current.append(trimmed).append(' ');
            if (trimmed.endsWith(";")) {
                statements.add(current.substring(0, current.lastIndexOf(";")).strip());
                current.setLength(0);
            }
        }
        return statements;
    }
}
