package io.cohort.replication.database;

import io.cohort.cluster.Member;
import io.cohort.config.ClusterConfig;
import io.cohort.config.DataSourceConfig;
import io.cohort.config.DatabaseProtocol;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Secret;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.group.RecordingCache;
import io.cohort.replication.group.TestMember;
import io.cohort.session.LiveSession;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * One node of a database-replicated cluster inside the test JVM: a started
 * {@link DatabaseReplicationService} with its own pool on the shared test database, the store of
 * application {@link #APP}, its own meters and a {@link RecordingCache}. Calls into the store hold
 * the session's monitor, as the node holds its lock.
 */
final class DatabaseNode implements AutoCloseable {

    static final String APP = "shop";

    private final String name;
    private final DatabaseReplicationService service;
    private final SessionStore store;
    private final SimpleMeterRegistry meters;
    private final RecordingCache cache;
    private volatile boolean closed;

    private DatabaseNode(String name, DatabaseReplicationService service, SessionStore store, SimpleMeterRegistry meters,
            RecordingCache cache) {
        this.name = name;
        this.service = service;
        this.store = store;
        this.meters = meters;
        this.cache = cache;
    }

    static DatabaseNode start(String name, TestDatabase database, ReplicationSettings settings) throws Exception {
        return start(name, database, settings, Duration.ofMillis(200));
    }

    /** A node whose service sweeps (and retries failed removals) every {@code sweepInterval}. */
    static DatabaseNode start(String name, TestDatabase database, ReplicationSettings settings, Duration sweepInterval)
            throws Exception {
        return start(name, database, settings, sweepInterval, Duration.ofSeconds(10));
    }

    /** A node whose graceful stop waits at most {@code stopTimeout} for the sessions it hands over. */
    static DatabaseNode start(String name, TestDatabase database, ReplicationSettings settings, Duration sweepInterval,
            Duration stopTimeout) throws Exception {
        ClusterConfig cluster = new ClusterConfig("test", true, settings, protocol(database), Optional.empty());
        Member self = new Member(name, name, "host-" + name, URI.create("http://127.0.0.1:1/" + name),
                URI.create("http://127.0.0.1:2/" + name));
        DatabaseReplicationService service = DatabaseReplicationService.start(cluster, self,
                DatabaseOptions.DEFAULT.withSweepInterval(sweepInterval));
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        RecordingCache cache = new RecordingCache();
        SessionStore store = service.newStore(APP);
        store.start(new SessionStoreContext(APP, "/" + APP, name, true, DatabaseNode.class.getClassLoader(),
                TestMember.CODEC, Optional.of(settings), service.clusterView(), meters, cache, stopTimeout));
        return new DatabaseNode(name, service, store, meters, cache);
    }

    static DatabaseProtocol protocol(TestDatabase database) {
        DataSourceConfig connection = new DataSourceConfig(DatabaseProtocol.INLINE_CONNECTION_NAME, database.jdbcUrl(),
                database.user(), database.password().map(p -> new Secret(p, "test")), 10, Duration.ofSeconds(5));
        return new DatabaseProtocol(connection, "cohort_", 100, Duration.ofMillis(20));
    }

    String name() {
        return name;
    }

    SessionStore store() {
        return store;
    }

    RecordingCache cache() {
        return cache;
    }

    DatabaseReplicationService service() {
        return service;
    }

    double counter(String meter, String... tags) {
        Counter counter = meters.find(meter).tags("app", APP).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    double changesSent() {
        return counter(ReplicationMetrics.CHANGES, "direction", ReplicationMetrics.SENT);
    }

    double bytesSent() {
        return counter(ReplicationMetrics.BYTES, "direction", ReplicationMetrics.SENT);
    }

    double bytesReceived() {
        return counter(ReplicationMetrics.BYTES, "direction", ReplicationMetrics.RECEIVED);
    }

    double conflicts() {
        return counter(ReplicationMetrics.CONFLICTS);
    }

    /** A graceful stop: every owned session is handed to the store as shutting down, then the node stops. */
    void stopGracefully(Collection<? extends LiveSession> owned) {
        for (LiveSession session : owned) {
            synchronized (session) {
                store.shuttingDown(session);
            }
        }
        close();
    }

    /** Stops abruptly: the pool closes under whatever is still queued, nothing is handed over. */
    void crash() {
        if (!closed) {
            closed = true;
            service.close();
            store.stop();
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            store.stop();
            service.close();
        }
    }
}
