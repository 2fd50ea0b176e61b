package io.cohort.jpetstore.data;

import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Makes sure the schema exists and a data set is loaded, safely when several nodes start at once against
 * the same database.
 *
 * <p>Protocol: create the schema (idempotent); if the marker row of {@code jpetstore_dataset} is there, done.
 * Otherwise open a transaction, insert the marker row first, then the whole data set, and commit. The marker's
 * primary key makes that insert a lock: exactly one node's insert succeeds, and the others block on it or fail
 * with a unique-key or lock-timeout error. The losers wait and re-check until the winner's commit makes the
 * marker visible. If the winner dies, its transaction rolls back with the marker and a waiting node takes over.
 *
 * <p>A data set that is already loaded is kept as it is, even if the settings now ask for another one.
 */
public final class DatabaseInitializer {
    /** How long a node waits for another node to finish loading before it gives up. */
    public static final Duration PATIENCE = Duration.ofMinutes(15);
    private static final System.Logger LOG = System.getLogger(DatabaseInitializer.class.getName());
    /** Unique violation; serialization failure; PostgreSQL deadlock; H2 lock timeout and concurrent update. */
    private static final Set<String> CONTENTION = Set.of("23505", "40001", "40P01", "HYT00", "90131");

    private final DataSource dataSource;
    private final DataSetChoice choice;

    public DatabaseInitializer(DataSource dataSource, DataSetChoice choice) {
        this.dataSource = dataSource;
        this.choice = choice;
    }

    public LoadedDataSet ensureLoaded() {
        Schema.install(dataSource);
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        for (int attempt = 1; ; attempt++) {
            Optional<LoadedDataSet> present = readMarker();
            if (present.isPresent()) {
                return present.get();
            }
            Optional<LoadedDataSet> loaded = loadUnlessAnotherNodeIs();
            if (loaded.isPresent()) {
                return loaded.get();
            }
            if (System.nanoTime() > deadline) {
                throw new DataAccessException("gave up after " + PATIENCE + " waiting for another node to load the"
                        + " JPetStore data set (marker row jpetstore_dataset.id = 1 never appeared)");
            }
            LOG.log(Level.DEBUG, "another node is loading the data set; waiting (attempt {0})", attempt);
            Pause.briefly(Math.min(attempt, 10));
        }
    }

    private Optional<LoadedDataSet> loadUnlessAnotherNodeIs() {
        long started = System.nanoTime();
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            try {
                LocalDateTime now = LocalDateTime.now();
                if (!claimMarker(c, now)) {
                    c.rollback();
                    return Optional.empty();
                }
                DataSetLoader.load(choice, c);
                c.commit();
                TableStatistics.refresh(dataSource);
                LOG.log(Level.INFO, "loaded the {0} data set in {1} ms", choice,
                        Duration.ofNanos(System.nanoTime() - started).toMillis());
                return Optional.of(new LoadedDataSet(choice.kind().label(), choice.accounts(), choice.products(),
                        now, true));
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new DataAccessException("loading the " + choice + " data set failed", e);
        }
    }

    /** Inserts the marker row; false if another transaction holds or has committed it. */
    private boolean claimMarker(Connection c, LocalDateTime now) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "INSERT INTO jpetstore_dataset (id, kind, accounts, products, loaded_at) VALUES (1, ?, ?, ?, ?)")) {
            SqlRunner.bind(ps, choice.kind().label(), choice.accounts(), choice.products(), Timestamp.valueOf(now));
            ps.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (CONTENTION.contains(e.getSQLState())) {
                return false;
            }
            throw e;
        }
    }

    private Optional<LoadedDataSet> readMarker() {
        return new SqlRunner(dataSource).optional(
                "SELECT kind, accounts, products, loaded_at FROM jpetstore_dataset WHERE id = 1",
                rs -> new LoadedDataSet(rs.getString(1), rs.getInt(2), rs.getInt(3),
                        rs.getTimestamp(4).toLocalDateTime(), false));
    }
}
