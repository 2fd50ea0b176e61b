package io.cohort.replication.group;

import io.cohort.cluster.Member;
import io.cohort.config.ClusterConfig;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.session.LiveSession;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.AllowListFilter;
import io.cohort.session.serial.SessionValueCodec;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * One member of a {@link TestGroup}: a started {@link GroupReplicationService} with the store of
 * application {@link TestGroup#APP}, its own meter registry, and ways to leave (gracefully, or by
 * crashing). Calls into the store synchronize on the session, as the node holds its lock.
 */
public final class TestMember implements AutoCloseable {

    public static final SessionValueCodec CODEC = new SessionValueCodec(TestMember.class.getClassLoader(),
            new AllowListFilter(List.of("io.cohort.**"), 1 << 20, 50, 10_000, TestMember.class.getClassLoader(), r -> { }),
            1 << 20);

    private final String name;
    private final GroupReplicationService service;
    private final SimpleMeterRegistry meters;
    private final SessionStore store;
    private final RecordingCache cache;
    private volatile boolean closed;

    private SessionStoreContext context;

    private TestMember(String name, GroupReplicationService service, SimpleMeterRegistry meters, SessionStore store,
            RecordingCache cache) {
        this.name = name;
        this.service = service;
        this.meters = meters;
        this.store = store;
        this.cache = cache;
    }

    static TestMember start(String name, String host, ClusterConfig cluster, GroupOptions options) throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Member self = new Member(name, name, host, URI.create("http://127.0.0.1:1/" + name),
                URI.create("http://127.0.0.1:2/" + name));
        GroupReplicationService service = GroupReplicationService.start(cluster, self, meters, options);
        SessionStore store = service.newStore(TestGroup.APP);
        RecordingCache cache = new RecordingCache();
        SessionStoreContext context = new SessionStoreContext(TestGroup.APP, "/" + TestGroup.APP, name, true,
                TestMember.class.getClassLoader(), CODEC, Optional.of(cluster.replication()), service.clusterView(), meters,
                cache, Duration.ofSeconds(10));
        store.start(context);
        TestMember member = new TestMember(name, service, meters, store, cache);
        member.context = context;
        return member;
    }

    /** Starts the store of another version of the application on this member, as a redeploy does. */
    public SessionStore startAnotherVersion() throws Exception {
        SessionStore version = service.newStore(TestGroup.APP);
        version.start(context);
        return version;
    }

    public String name() {
        return name;
    }

    public SessionStore store() {
        return store;
    }

    public GroupReplicationService service() {
        return service;
    }

    /** The node cache of this member: which sessions the store told it to evict. */
    public RecordingCache cache() {
        return cache;
    }

    public List<String> memberNames() {
        return service.clusterView().members().stream().map(Member::name).toList();
    }

    /** The copy this member holds as a backup. */
    public Optional<StoredSession> backup(String sessionId) {
        return service.backupOf(TestGroup.APP, sessionId);
    }

    public long backupVersion(String sessionId) {
        return backup(sessionId).map(StoredSession::version).orElse(-1L);
    }

    // --- the node's calls, under the session's lock ---

    public void created(LiveSession session) {
        synchronized (session) {
            store.created(session);
        }
    }

    public void attributeChanged(LiveSession session, String name) {
        synchronized (session) {
            store.attributeChanged(session, name);
        }
    }

    public void requestCompleted(LiveSession session) {
        synchronized (session) {
            store.requestCompleted(session);
        }
    }

    // --- metrics ---

    public double counter(String name, String... tags) {
        Counter counter = meters.find(name).tags(tags).counter();
        return counter == null ? 0 : counter.count();
    }

    public double gauge(String name) {
        Gauge gauge = meters.find(name).tags("app", TestGroup.APP).gauge();
        return gauge == null ? Double.NaN : gauge.value();
    }

    public double bytesSent() {
        return counter(ReplicationMetrics.BYTES, "app", TestGroup.APP, "direction", ReplicationMetrics.SENT);
    }

    public double changesSent() {
        return counter(ReplicationMetrics.CHANGES, "app", TestGroup.APP, "direction", ReplicationMetrics.SENT);
    }

    public double attributesSent() {
        return counter(ReplicationMetrics.ATTRIBUTES, "app", TestGroup.APP, "direction", ReplicationMetrics.SENT);
    }

    public double rejectedMessages() {
        return counter(ReplicationMetrics.REJECTED);
    }

    public double refusedConnections() {
        return counter(ReplicationMetrics.CONNECTIONS_REFUSED);
    }

    public SimpleMeterRegistry meters() {
        return meters;
    }

    // --- leaving ---

    /** A graceful stop: every owned session is handed to the store as shutting down, then the node leaves. */
    public void stopGracefully(Collection<? extends LiveSession> owned) {
        for (LiveSession session : owned) {
            synchronized (session) {
                store.shuttingDown(session);
            }
        }
        close();
    }

    /** Drops off the network without leaving, as a killed process does. */
    public void crash() {
        if (!closed) {
            closed = true;
            service.crash();
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
