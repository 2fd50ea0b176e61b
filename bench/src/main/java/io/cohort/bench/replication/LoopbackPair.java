package io.cohort.bench.replication;

import io.cohort.cluster.Member;
import io.cohort.config.ClusterConfig;
import io.cohort.config.ConfigDuration;
import io.cohort.config.Delivery;
import io.cohort.config.Discovery;
import io.cohort.config.PeerMember;
import io.cohort.config.PeerProtocol;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.SecurityConfig;
import io.cohort.config.Trigger;
import io.cohort.net.PresetPorts;
import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.group.BackupCopies;
import io.cohort.replication.group.GroupOptions;
import io.cohort.replication.group.GroupReplicationService;
import io.cohort.session.SessionCacheControl;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Two replication members in this JVM, joined over JGroups TCP on 127.0.0.1 (the {@code <peer>}
 * protocol with its built-in stack), owner {@code n1} running the engine's real
 * {@code ReplicatingSessionStore} for the shop with onRequestEnd, modifiedAttributes and write-quota 1
 * (synchronous delivery unless given another); {@code n2} holds the copies.
 */
final class LoopbackPair implements AutoCloseable {

    private final GroupReplicationService owner;
    private final GroupReplicationService holder;
    private final SimpleMeterRegistry ownerMeters = new SimpleMeterRegistry();
    private final SimpleMeterRegistry holderMeters = new SimpleMeterRegistry();
    private final SessionStore store;

    /**
     * The tuning key for when request threads send for their lanes ({@link CallerSends}): {@code never},
     * {@code when-idle} or {@code when-quiet} (the default, {@link GroupOptions#DEFAULT}); {@code false} and {@code true} stand for the first two.
     */
    static final String CALLER_SENDS = "caller-sends";
    /** The tuning key for both members' {@code <peer flush-interval>} (a duration such as {@code 5ms}). */
    static final String FLUSH_INTERVAL = "flush-interval";

    LoopbackPair() throws Exception {
        this(new Delivery.Sync(Duration.ofSeconds(2)), PeerProtocol.DEFAULT_BATCH_SIZE, Optional.empty(), Map.of());
    }

    /**
     * @param batchSize   the {@code <peer batch-size>} of both members
     * @param security    the cluster's {@code <security>}, as a local cluster has it (authenticated, encrypted)
     * @param stackTuning values for the JGroups stack's placeholders (e.g. {@code cohort.message_processing_policy}),
     *     {@value #CALLER_SENDS} ({@link GroupOptions#callerSends()}, see {@link #callerSends(String)}) and
     *     {@value #FLUSH_INTERVAL} (a duration as the configuration writes it, e.g. {@code 5ms}: the
     *     {@code <peer flush-interval>})
     */
    LoopbackPair(Delivery delivery, int batchSize, Optional<SecurityConfig> security, Map<String, String> stackTuning)
            throws Exception {
        int[] ports = {PresetPorts.one(), PresetPorts.one()};
        List<PeerMember> members = List.of(new PeerMember("127.0.0.1", ports[0]), new PeerMember("127.0.0.1", ports[1]));
        ReplicationSettings settings = new ReplicationSettings(1, true, Duration.ofSeconds(1), Trigger.ON_REQUEST_END,
                Scope.MODIFIED_ATTRIBUTES, delivery);
        String cluster = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, String> stack = new HashMap<>(stackTuning);
        String callerSends = stack.remove(CALLER_SENDS);
        String flush = stack.remove(FLUSH_INTERVAL);
        Duration flushInterval = flush == null ? PeerProtocol.DEFAULT_FLUSH_INTERVAL
                : ConfigDuration.parse(flush);
        ClusterConfig config = clusterConfig(cluster, ports[0], members, settings, batchSize, flushInterval, security);
        GroupOptions options = GroupOptions.DEFAULT.withStackTuning(stack)
                .withCallerSends(callerSends(callerSends));
        owner = start(config, "n1", ownerMeters, options);
        holder = start(clusterConfig(cluster, ports[1], members, settings, batchSize, flushInterval, security), "n2", holderMeters, options);
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (owner.clusterView().members().size() < 2 || holder.clusterView().members().size() < 2) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the two members did not see each other within 30 s");
            }
            Thread.sleep(20);
        }
        store = owner.newStore(HotPath.APPLICATION);
        store.start(new SessionStoreContext(HotPath.APPLICATION, "/" + HotPath.APPLICATION, "n1", true,
                HotPath.class.getClassLoader(), HotPath.VALUES, Optional.of(config.replication()), owner.clusterView(),
                ownerMeters, SessionCacheControl.NONE, Duration.ofSeconds(5)));
    }

    /** The {@value #CALLER_SENDS} tuning value as a rule; absent: the default. */
    static CallerSends callerSends(String value) {
        if (value == null) {
            return GroupOptions.DEFAULT.callerSends();
        }
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "false", "never" -> CallerSends.NEVER;
            case "true", "when-idle" -> CallerSends.WHEN_IDLE;
            case "when-quiet" -> CallerSends.WHEN_QUIET;
            default -> throw new IllegalArgumentException(CALLER_SENDS + "=" + value
                    + ": expected never, when-idle or when-quiet (false and true stand for the first two)");
        };
    }

    SessionStore store() {
        return store;
    }

    Optional<StoredSession> copyAtHolder(String id) {
        return BackupCopies.heldBy(holder, HotPath.APPLICATION, id);
    }

    double ownerCounter(String name) {
        Counter counter = ownerMeters.find(name).tags("app", HotPath.APPLICATION, "direction", ReplicationMetrics.SENT)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /** A counter of the holder's replication meters with {@code direction=received}, 0 if absent. */
    double holderReceived(String name) {
        Counter counter = holderMeters.find(name).tags("app", HotPath.APPLICATION, "direction", ReplicationMetrics.RECEIVED)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    double syncTimeouts() {
        Counter counter = ownerMeters.find(ReplicationMetrics.SYNC_TIMEOUTS).counter();
        return counter == null ? 0 : counter.count();
    }

    @Override
    public void close() {
        store.stop();
        owner.close();
        holder.close();
    }

    private static GroupReplicationService start(ClusterConfig config, String name, SimpleMeterRegistry meters,
            GroupOptions options) throws Exception {
        Member self = new Member(name, name, "localhost", URI.create("http://127.0.0.1:1/" + name),
                URI.create("http://127.0.0.1:2/" + name));
        return GroupReplicationService.start(config, self, meters, options);
    }

    private static ClusterConfig clusterConfig(String cluster, int port, List<PeerMember> members,
            ReplicationSettings settings, int batchSize, Duration flushInterval, Optional<SecurityConfig> security) {
        PeerProtocol peer = new PeerProtocol("127.0.0.1", port, 1, Duration.ofMillis(500), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(), members, batchSize,
                flushInterval);
        return new ClusterConfig(cluster, true, settings, peer, security);
    }
}
