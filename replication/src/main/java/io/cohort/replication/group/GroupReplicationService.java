package io.cohort.replication.group;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import io.cohort.config.ClusterConfig;
import io.cohort.config.SecurityConfig;
import io.cohort.config.GroupProtocol;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Secret;
import io.cohort.replication.engine.CallerSends;
import io.cohort.replication.engine.ReplicatingSessionStore;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionTransport;
import io.cohort.replication.wire.MessageCodec;
import io.cohort.replication.wire.FrameSeal;
import io.cohort.replication.wire.ReplicationMessage.Hello;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.SessionStoreFactory;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jgroups.Address;
import org.jgroups.JChannel;
import org.jgroups.View;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node-wide replication service over a JGroups group ({@code <peer>} or {@code <multicast>}):
 * one channel, one membership, one store of backups for every application, and one
 * {@link GroupSessionTransport} per started application. Created by the provider when the node
 * starts; {@link #close()} leaves the group after every application has stopped.
 */
public final class GroupReplicationService implements SessionStoreFactory {

    private static final Logger LOG = LoggerFactory.getLogger(GroupReplicationService.class);

    private final ClusterConfig cluster;
    private final GroupMembership membership;
    private final GroupChannel channel;
    private final GroupContext group;
    private final MessageCodec codec;
    private final MeterRegistry meters;
    private final ConcurrentMap<String, GroupSessionTransport> applications = new ConcurrentHashMap<>();
    /** Per application, the version a newer one took the replication from, until one of them closes. */
    private final ConcurrentMap<String, GroupSessionTransport> displaced = new ConcurrentHashMap<>();
    private final ViewRebalancer rebalancer;
    /** Removals other members made while members were out of their view, kept here for those members. */
    private final SharedRemovals sharedRemovals;
    /** Frames of removals sent for applications that may not be deployed here. */
    private final PlainFrames plainFrames;
    private final ScheduledExecutorService sweeper;
    private final CallerSends callerSends;

    private GroupReplicationService(ClusterConfig cluster, Member self, MeterRegistry meters, GroupOptions options)
            throws Exception {
        this.cluster = cluster;
        this.meters = meters;
        this.callerSends = options.callerSends();
        cluster.security().ifPresent(s -> warnIfShort(self.name(), s.secret()));
        Optional<ClusterKeys> keys = cluster.security().map(s -> ClusterKeys.derive(s.secret(), cluster.name()));
        this.codec = new MessageCodec(options.limits());
        this.membership = new GroupMembership(self);
        JChannel jchannel = GroupStack.create(cluster, self.name(), options.stackTuning(), keys);
        SuspicionWatch suspicions = SuspicionWatch.insertInto(jchannel.getProtocolStack(), this::suspected);
        ArrivalGate.insertInto(jchannel.getProtocolStack(), ReplicationMetrics.rejected(meters));
        if (jchannel.getProtocolStack().getTransport() instanceof BufferedTcp tcp) {
            tcp.countRefusedConnections(ReplicationMetrics.refusedConnections(meters));
        }
        Predicate<String> suspected = name -> membership.addressOf(name).map(suspicions::isSuspected).orElse(false);
        // over TLS every connection is authenticated by the cluster's key and protected against replay already: a seal
        // would add nothing that a holder of the secret could not forge anyway
        boolean tls = cluster.security().map(SecurityConfig::tls).orElse(false);
        this.channel = new GroupChannel(jchannel, cluster.name(), keys.filter(k -> !tls)
                .map(k -> new FrameSeal(k.sealKey(), SharedSecretToken.MAX_CLOCK_SKEW, System::currentTimeMillis))
                .orElse(null));
        boolean multicast = cluster.protocol() instanceof io.cohort.config.MulticastProtocol;
        this.group = new GroupContext(membership, new Messenger(membership, channel, codec, multicast),
                new BackupStore(options.tombstoneLifetime()),
                new SyncAcknowledgements(suspected), new LookupRequests(suspected));
        this.plainFrames = new PlainFrames(group, applications, meters);
        this.sharedRemovals = new SharedRemovals(group, meters, plainFrames);
        this.rebalancer = new ViewRebalancer(group, applications::values, sharedRemovals);
        this.sweeper = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "cohort-backup-sweeper-" + self.name());
            thread.setDaemon(true);
            return thread;
        });
        long sweepMillis = options.sweepInterval().toMillis();
        sweeper.scheduleWithFixedDelay(this::sweep, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        FailureDetectorWatch watch = FailureDetectorWatch.of(self.name(), jchannel, membership);
        if (watch != null) {
            sweeper.scheduleWithFixedDelay(watch::check, sweepMillis, sweepMillis, TimeUnit.MILLISECONDS);
        }
        Counter membershipChanges = ClusterMeters.register(meters, cluster.name(), membership, watch);
        membership.onChange(members -> {
            membershipChanges.increment();
            Set<String> names = members.stream().map(Member::name).collect(Collectors.toSet());
            group.acks().membersAre(names);
            group.lookups().membersAre(names);
            rebalancer.membersChanged();
        });
    }

    /** Joins the group and returns when this node is a member. */
    public static GroupReplicationService start(ClusterConfig cluster, Member self, MeterRegistry meters,
            GroupOptions options) throws Exception {
        GroupReplicationService service = new GroupReplicationService(cluster, self, meters, options);
        try {
            service.connect();
            return service;
        } catch (Exception e) {
            service.close();
            throw e;
        }
    }

    private void connect() throws Exception {
        MessageRouter router = new MessageRouter(group, codec, applications, meters, sharedRemovals, plainFrames, view -> {
            viewChanged(view);
            return null;
        });
        Address address = channel.connect(new SelfAwareInbox(router, membership, channel));
        LOG.info("{} joined cluster {} over {} as {}{}", membership.self().name(), cluster.name(),
                cluster.protocol().getClass().getSimpleName(), address,
                cluster.security().map(GroupReplicationService::protection).orElse(""));
        warnIfOpenToTheNetwork(address);
        View view = channel.channel().getView();
        if (view != null) {
            viewChanged(view);
        }
    }

    /**
     * Keys come from the secret by PBKDF2, which slows guessing but cannot stop it: whoever captures traffic can test
     * guesses offline, so a short secret is worth a warning (not a refusal: a test cluster may use one).
     */
    private static void warnIfShort(String member, Secret secret) {
        if (secret.isShort()) {
            LOG.warn("{}: the cluster secret from {} has {} characters; whoever captures replication traffic can test "
                    + "guesses of it offline. Use at least {} random characters (e.g. openssl rand -base64 24)", member,
                    secret.origin(), secret.reveal().length(), Secret.SHORTEST_QUIET_LENGTH);
        }
    }

    /**
     * Without {@code <security>}, anyone who reaches the replication port can join, read every session and write
     * copies: fine on loopback or a network only the cluster uses, worth a warning on any other address.
     */
    private void warnIfOpenToTheNetwork(Address address) {
        if (cluster.security().isPresent()) {
            return;
        }
        Object physical = channel.channel().down(new org.jgroups.Event(org.jgroups.Event.GET_PHYSICAL_ADDRESS, address));
        if (physical instanceof org.jgroups.stack.IpAddress ip && ip.getIpAddress() != null
                && !ip.getIpAddress().isLoopbackAddress()) {
            LOG.warn("{} replicates sessions on {} without <security>: any process that reaches this address can join "
                    + "cluster {}, read its sessions and write copies. Add <security secret-env=\"...\"/> to <cluster> "
                    + "unless only the cluster's members can reach this network", membership.self().name(), ip,
                    cluster.name());
        }
    }

    /**
     * A member is suspected of having died (its connection closed): stop waiting for it, if it is the member of that
     * name in the view. Logged at debug level only: the member of the view next in line to coordinate can suspect
     * a member that has just stopped gracefully.
     */
    private void suspected(Address address) {
        String name = membership.nameOf(address);
        if (!membership.addressOf(name).map(address::equals).orElse(false)) {
            return; // not the member of that name now (it left, or came back under a new address)
        }
        LOG.debug("{}: {} is suspected (its connection closed); its answers and acknowledgements are not waited for "
                + "until it is heard from again or leaves the view", membership.self().name(), name);
        group.acks().suspected(name);
        group.lookups().suspected(name);
    }

    private synchronized void viewChanged(View view) {
        List<Address> joined = membership.viewChanged(view);
        if (joined.isEmpty()) {
            return;
        }
        byte[] hello = codec.encode(new Hello(membership.self()));
        joined.forEach(address -> channel.send(address, hello, true));
    }

    @Override
    public SessionStore newStore(String application) {
        return new ReplicatingSessionStore(application, this::openTransport);
    }

    private SessionTransport openTransport(SessionStoreContext context, ReplicationSettings settings,
            ReplicationMetrics metrics) {
        String app = context.application();
        GroupSessionTransport[] self = new GroupSessionTransport[1];
        GroupProtocol protocol = (GroupProtocol) cluster.protocol();
        FrameBundler bundler = new FrameBundler(group.messenger(), metrics, protocol.batchSize(), protocol.flushInterval(),
                callerSends);
        self[0] = new GroupSessionTransport(app, settings, group, metrics, context.cache(), bundler,
                () -> closed(app, self[0]),
                () -> applications.get(app) != self[0]);
        metrics.gauge(ReplicationMetrics.BACKUPS, () -> group.backups().count(app));
        GroupSessionTransport previous = applications.put(app, self[0]);
        if (previous != null) {
            displaced.put(app, previous);
            LOG.info("{}: a new version takes over the application's replication", app);
        }
        return self[0];
    }

    /**
     * A version's transport closed. The version it displaced took over again if this one closed while it was still
     * the application's (a new version that failed to start), so the version still serving keeps its replication.
     */
    private void closed(String app, GroupSessionTransport transport) {
        if (displaced.remove(app, transport)) {
            return; // an older version retired after its successor took over
        }
        if (applications.remove(app, transport)) {
            GroupSessionTransport previous = displaced.remove(app);
            if (previous != null && applications.putIfAbsent(app, previous) == null) {
                LOG.info("{}: the version that was replaced serves on and takes the application's replication back", app);
            }
        }
    }

    @Override
    public ClusterView clusterView() {
        return membership;
    }

    private void sweep() {
        try {
            Instant now = Instant.now();
            applications.values().forEach(transport -> transport.owedRemovals().forgetOld(now));
            sharedRemovals.forgetOld(now);
            int dropped = group.backups().sweep(now);
            if (dropped > 0) {
                LOG.info("Dropped {} orphaned session copies (their owners stopped touching them long ago)", dropped);
            }
        } catch (RuntimeException e) {
            LOG.warn("Sweeping backups failed", e);
        }
    }

    /** Leaves the group gracefully; bounded by JGroups' leave timeout. */
    @Override
    public void close() {
        sweeper.shutdownNow();
        membership.close();
        rebalancer.close();
        channel.close();
    }

    /** How the join's log line describes the group's security. */
    private static String protection(SecurityConfig security) {
        return security.tls() ? " (over TLS)" : security.encrypt() ? " (authenticated, encrypted)" : " (authenticated)";
    }

    /** Disappears from the group as if the process had been killed (for failure tests). */
    public void crash() {
        sweeper.shutdownNow();
        membership.close();
        rebalancer.close();
        channel.crash();
    }

    /** The copy this node holds of another member's session (for tests and diagnostics). */
    Optional<io.cohort.session.StoredSession> backupOf(String application, String sessionId) {
        return group.backups().get(application, sessionId);
    }

    BackupStore backups() {
        return group.backups();
    }

    /** Removals other members shared with this one, kept for members out of their view (for tests and diagnostics). */
    SharedRemovals sharedRemovals() {
        return sharedRemovals;
    }

    /** The transport of the application's current version, or null (for tests and diagnostics). */
    GroupSessionTransport transportOf(String application) {
        return applications.get(application);
    }

    MessageCodec codec() {
        return codec;
    }

    GroupChannel channel() {
        return channel;
    }

    Messenger messenger() {
        return group.messenger();
    }

    /** Records this node's address before the first view is processed (it arrives before connect() returns). */
    private record SelfAwareInbox(MessageRouter router, GroupMembership membership, GroupChannel channel)
            implements Inbox {

        @Override
        public void frame(Address from, byte[] buffer, int offset, int length) {
            router.frame(from, buffer, offset, length);
        }

        @Override
        public void rejected(Address from, String reason) {
            router.rejected(from, reason);
        }

        @Override
        public void view(View view) {
            if (membership.selfAddress() == null) {
                membership.joined(channel.channel().getAddress());
            }
            router.view(view);
        }
    }
}
