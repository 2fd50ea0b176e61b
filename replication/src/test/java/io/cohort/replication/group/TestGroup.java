package io.cohort.replication.group;

import io.cohort.config.ClusterConfig;
import io.cohort.config.Delivery;
import io.cohort.config.Discovery;
import io.cohort.config.MulticastProtocol;
import io.cohort.config.PeerMember;
import io.cohort.config.PeerProtocol;
import io.cohort.config.ProtocolConfig;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.Secret;
import io.cohort.config.SecurityConfig;
import io.cohort.config.Trigger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A replication group of in-JVM members on 127.0.0.1 with ports of their own and short failure
 * detection timeouts, for engine-level tests without Jetty.
 */
public final class TestGroup implements AutoCloseable {

    public enum Transport {
        PEER("peer"), MULTICAST("multicast");

        private final String label;

        Transport(String label) {
            this.label = label;
        }

        @Override
        public String toString() {
            return label;
        }
    }

    /** Short timeouts: a crashed member leaves the view within a second or two. */
    public static final Map<String, String> FAST_STACK = Map.of(
            "cohort.fd.timeout", "2s",
            "cohort.fd.interval", "400ms",
            "cohort.verify_suspect.timeout", "300ms",
            "cohort.join_timeout", "300ms",
            "cohort.merge.min_interval", "500ms",
            "cohort.merge.max_interval", "1s",
            "cohort.max_join_attempts", "20",
            "cohort.leave_timeout", "300ms");

    public static final String APP = "shop";

    private final Transport transport;
    private final ReplicationSettings settings;
    private final String clusterName = "test-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<Integer> ports = new ArrayList<>();
    private final String multicastAddress = TestPorts.multicastAddress();
    private final int multicastPort = ThreadLocalRandom.current().nextInt(40_000, 50_000);
    private final List<TestMember> members = new ArrayList<>();
    private Optional<SecurityConfig> security = Optional.empty();
    private Map<String, String> extraTuning = Map.of();
    private Duration tombstoneLifetime = BackupStore.TOMBSTONE_LIFETIME;

    private TestGroup(Transport transport, ReplicationSettings settings, int capacity) {
        this.transport = transport;
        this.settings = settings;
        for (int i = 0; i < capacity; i++) {
            ports.add(TestPorts.freePort());
        }
    }

    public static TestGroup of(Transport transport, ReplicationSettings settings) {
        return new TestGroup(transport, settings, 7);
    }

    public static ReplicationSettings settings(int quota, Trigger trigger, Scope scope, Delivery delivery) {
        return new ReplicationSettings(quota, true, Duration.ofMillis(1500), trigger, scope, delivery);
    }

    public static ReplicationSettings defaults() {
        return settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT);
    }

    public TestGroup secured(String secret, boolean encrypt) {
        this.security = Optional.of(new SecurityConfig(new Secret(secret, "test"), encrypt));
        return this;
    }

    /** Members connect over TLS with the key derived from {@code secret} ({@code <security tls="true">}). */
    public TestGroup securedWithTls(String secret) {
        this.security = Optional.of(new SecurityConfig(new Secret(secret, "test"), true, true));
        return this;
    }

    public TestGroup tuning(Map<String, String> tuning) {
        this.extraTuning = Map.copyOf(tuning);
        return this;
    }

    /** Members started from now on remember a removed session's id for {@code lifetime} instead of a minute. */
    public TestGroup tombstoneLifetime(Duration lifetime) {
        this.tombstoneLifetime = lifetime;
        return this;
    }

    public Transport transport() {
        return transport;
    }

    /** The port of member slot {@code slot} (0-based), listed as a member whether or not a member runs there. */
    public int port(int slot) {
        return ports.get(slot);
    }

    public ReplicationSettings settings() {
        return settings;
    }

    /** Starts member {@code slot} (0-based; a slot fixes the member's port) named {@code name}. */
    public TestMember start(int slot, String name) throws Exception {
        return start(slot, name, "localhost", settings, security);
    }

    public TestMember start(int slot, String name, String host) throws Exception {
        return start(slot, name, host, settings, security);
    }

    /** A member with its own security settings, e.g. a wrong secret. */
    public TestMember start(int slot, String name, Optional<SecurityConfig> memberSecurity) throws Exception {
        return start(slot, name, "localhost", settings, memberSecurity);
    }

    /** A member that finds the others through the discovery table in {@code dataSource} (JDBC_PING2). */
    public TestMember startWithJdbcDiscovery(int slot, String name, io.cohort.config.DataSourceConfig dataSource)
            throws Exception {
        PeerProtocol jdbc = new PeerProtocol("127.0.0.1", ports.get(slot), 1, Duration.ofMillis(300), Discovery.JDBC,
                Optional.empty(), Optional.of(dataSource), Optional.empty(), List.of(), PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL);
        return start(name, "localhost", settings, security, jdbc);
    }

    /**
     * A member of the same cluster name that does not look for the others (it forms a group of its
     * own), e.g. an intruder that sends to members directly instead of joining.
     */
    public TestMember startLoner(int slot, String name, Optional<SecurityConfig> memberSecurity) throws Exception {
        return startLoner(slot, name, "127.0.0.1", memberSecurity);
    }

    /** A loner ({@link #startLoner}) whose transport listens on {@code bindAddress}. */
    public TestMember startLoner(int slot, String name, String bindAddress, Optional<SecurityConfig> memberSecurity)
            throws Exception {
        PeerProtocol alone = new PeerProtocol(bindAddress, ports.get(slot), 1, Duration.ofMillis(300), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(new PeerMember(bindAddress, ports.get(slot))),
                PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL);
        return start(name, "localhost", settings, memberSecurity, alone);
    }

    private TestMember start(int slot, String name, String host, ReplicationSettings memberSettings,
            Optional<SecurityConfig> memberSecurity) throws Exception {
        return start(name, host, memberSettings, memberSecurity, protocol(slot));
    }

    private TestMember start(String name, String host, ReplicationSettings memberSettings,
            Optional<SecurityConfig> memberSecurity, ProtocolConfig protocol) throws Exception {
        ClusterConfig cluster = new ClusterConfig(clusterName, true, memberSettings, protocol, memberSecurity);
        Map<String, String> tuning = new HashMap<>(FAST_STACK);
        tuning.putAll(extraTuning);
        TestMember member = TestMember.start(name, host, cluster, GroupOptions.DEFAULT.withStackTuning(tuning)
                .withSweepInterval(Duration.ofMillis(200)).withTombstoneLifetime(tombstoneLifetime));
        synchronized (members) {
            members.add(member);
        }
        return member;
    }

    /** Starts {@code count} members named a, b, c, ... and waits until they all see each other. */
    public List<TestMember> startMembers(int count) throws Exception {
        List<TestMember> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            started.add(start(i, String.valueOf((char) ('a' + i))));
        }
        awaitMembers(started);
        return started;
    }

    /** Waits until each of {@code expected} lists exactly {@code expected} as members. */
    public static void awaitMembers(List<TestMember> expected) {
        awaitMembers(expected, Duration.ofSeconds(20));
    }

    /** {@link #awaitMembers(List)} with its own limit; a failure says what each member saw last. */
    public static void awaitMembers(List<TestMember> expected, Duration limit) {
        List<String> names = expected.stream().map(TestMember::name).sorted().toList();
        try {
            Await.until("every member sees " + names, limit, () -> expected.stream()
                    .allMatch(m -> m.memberNames().stream().sorted().toList().equals(names)));
        } catch (AssertionError e) {
            StringBuilder seen = new StringBuilder(e.getMessage()).append("; last seen:");
            expected.forEach(m -> seen.append(' ').append(m.name()).append('=').append(m.memberNames()));
            throw new AssertionError(seen.toString(), e);
        }
    }

    private ProtocolConfig protocol(int slot) {
        if (transport == Transport.MULTICAST) {
            return new MulticastProtocol(multicastAddress, multicastPort, "127.0.0.1", 0, Optional.empty(),
                    PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL);
        }
        List<PeerMember> all = ports.stream().map(p -> new PeerMember("127.0.0.1", p)).toList();
        return new PeerProtocol("127.0.0.1", ports.get(slot), 1, Duration.ofMillis(300), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(), all, PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL);
    }

    @Override
    public void close() {
        List<TestMember> all;
        synchronized (members) {
            all = new ArrayList<>(members);
            members.clear();
        }
        all.parallelStream().forEach(TestMember::close);
    }
}
