package io.cohort.replication.database;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import io.cohort.cluster.SingleNodeView;
import io.cohort.config.ClusterConfig;
import io.cohort.config.DataSourceConfig;
import io.cohort.config.DatabaseProtocol;
import io.cohort.config.ReplicationSettings;
import io.cohort.replication.engine.ReplicatingSessionStore;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionTransport;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.SessionStoreFactory;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node-wide service of the {@code <database>} protocol: its own small HikariCP pool on the
 * configured connection, the session tables (created or checked at start), a sweeper of expired
 * rows (which also retries the removals that did not reach the database), and one
 * {@link DatabaseSessionTransport} per started application. The database protocol has
 * no group membership, so {@link #clusterView()} is this node alone. {@link #close()} stops the
 * sweeper and closes the pool, after every application has stopped.
 */
public final class DatabaseReplicationService implements SessionStoreFactory {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseReplicationService.class);

    /**
     * How long the pool's check of a connection that sat idle may take (at most the connection timeout): a
     * database that stopped answering costs a synchronous write at most this much on top of its budget.
     */
    static final Duration VALIDATION_TIMEOUT = Duration.ofSeconds(1);

    /** How long PostgreSQL's driver may take to deliver the cancel of a statement past its query timeout. */
    static final Duration CANCEL_SIGNAL_TIMEOUT = Duration.ofSeconds(1);

    private final Member self;
    private final DatabaseProtocol protocol;
    private final HikariDataSource pool;
    private final SessionTables tables;
    private final ClusterView view;
    private final ScheduledExecutorService sweeper;
    /** The transports of the started applications, whose failed removals each sweep retries. */
    private final Set<DatabaseSessionTransport> transports = ConcurrentHashMap.newKeySet();

    private DatabaseReplicationService(Member self, DatabaseProtocol protocol, HikariDataSource pool,
            SessionTables tables, DatabaseOptions options) {
        this.self = self;
        this.protocol = protocol;
        this.pool = pool;
        this.tables = tables;
        this.view = new SingleNodeView(self);
        ExpiredSessionSweeper expired = new ExpiredSessionSweeper(pool, tables, options.sweepLimit(),
                DatabaseSessionTransport.BACKGROUND_TIMEOUT);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-session-sweeper-" + self.name());
            thread.setDaemon(true);
            return thread;
        });
        long millis = options.sweepInterval().toMillis();
        sweeper.scheduleWithFixedDelay(() -> sweep(expired), millis, millis, TimeUnit.MILLISECONDS);
    }

    /**
     * Opens the pool and creates or checks the session tables; fails with a message naming the
     * database (without its URL parameters, which may hold a password) when that is not possible.
     */
    public static DatabaseReplicationService start(ClusterConfig cluster, Member self, DatabaseOptions options)
            throws SQLException {
        if (!(cluster.protocol() instanceof DatabaseProtocol protocol)) {
            throw new IllegalArgumentException("not a <database> protocol: " + cluster.protocol());
        }
        HikariDataSource pool = new HikariDataSource(hikari(self, protocol.connection(), options));
        try {
            SessionTables tables = SessionTables.createOrCheck(pool, protocol.tablePrefix());
            LOG.info("{} stores sessions in {} ({}sessions, {}session_attributes; values as {})", self.name(),
                    safeUrl(protocol.connection().url()), protocol.tablePrefix(), protocol.tablePrefix(),
                    tables.binaryType());
            return new DatabaseReplicationService(self, protocol, pool, tables, options);
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw new SQLException("cannot use the session database " + safeUrl(protocol.connection().url()) + ": "
                    + e.getMessage(), e);
        }
    }

    private static HikariConfig hikari(Member self, DataSourceConfig connection, DatabaseOptions options) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("cohort-sessions-" + self.name());
        hikari.setJdbcUrl(connection.url());
        connection.user().ifPresent(hikari::setUsername);
        connection.password().ifPresent(secret -> hikari.setPassword(secret.reveal()));
        int size = Math.min(connection.maxPoolSize(), options.maxPoolSize());
        hikari.setMaximumPoolSize(size);
        hikari.setMinimumIdle(Math.min(2, size));
        long connectionTimeout = connection.connectionTimeout().toMillis(); // at least 250 ms (DataSourceConfig)
        hikari.setConnectionTimeout(connectionTimeout);
        // a pooled connection idle for a while is checked before use; behind a partition that check, not the
        // caller's budget, would decide how long a synchronous write waits
        hikari.setValidationTimeout(Math.min(VALIDATION_TIMEOUT.toMillis(), connectionTimeout));
        if (connection.url().startsWith("jdbc:postgresql:")) {
            // a statement past its query timeout waits until the driver's cancel request was sent (10 s by default)
            hikari.addDataSourceProperty("cancelSignalTimeout", String.valueOf(CANCEL_SIGNAL_TIMEOUT.toSeconds()));
        }
        hikari.setInitializationFailTimeout(-1);
        return hikari;
    }

    /** A JDBC URL without parameters, which may carry a password. */
    static String safeUrl(String url) {
        int cut = url.length();
        for (char c : new char[] {'?', ';'}) {
            int at = url.indexOf(c);
            if (at >= 0) {
                cut = Math.min(cut, at);
            }
        }
        return url.substring(0, cut);
    }

    @Override
    public SessionStore newStore(String application) {
        return new ReplicatingSessionStore(application, this::openTransport);
    }

    private SessionTransport openTransport(SessionStoreContext context, ReplicationSettings settings,
            ReplicationMetrics metrics) {
        String app = context.application();
        AtomicReference<DatabaseSessionTransport> opened = new AtomicReference<>();
        DatabaseSessionTransport transport = new DatabaseSessionTransport(app,
                new SessionWriter(pool, tables, app, self.name(), self.host()),
                new SessionLoader(pool, tables, app, self.name(), self.host()),
                protocol, settings, metrics, context.cache(), () -> transports.remove(opened.get()));
        opened.set(transport);
        transports.add(transport);
        return transport;
    }

    @Override
    public ClusterView clusterView() {
        return view;
    }

    private void sweep(ExpiredSessionSweeper expired) {
        transports.forEach(DatabaseSessionTransport::retryRemovals);
        try {
            int deleted = expired.sweep(Instant.now());
            if (deleted > 0) {
                LOG.info("Deleted {} expired sessions from the session database", deleted);
            }
        } catch (SQLException | RuntimeException e) {
            LOG.warn("Sweeping expired sessions from the database failed: {}", e.toString());
        }
    }

    /** Stops the sweeper and closes the pool (in-flight statements fail). */
    @Override
    public void close() {
        sweeper.shutdownNow();
        pool.close();
    }

    /** The tables in use (for tests and diagnostics). */
    String sessionsTable() {
        return tables.sessions();
    }
}
