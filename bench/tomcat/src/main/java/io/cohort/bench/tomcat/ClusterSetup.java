package io.cohort.bench.tomcat;

import java.io.IOException;
import org.apache.catalina.ha.session.BackupManager;
import org.apache.catalina.ha.session.ClusterManagerBase;
import org.apache.catalina.ha.session.ClusterSessionListener;
import org.apache.catalina.ha.session.DeltaManager;
import org.apache.catalina.ha.session.JvmRouteBinderValve;
import org.apache.catalina.ha.tcp.ReplicationValve;
import org.apache.catalina.ha.tcp.SimpleTcpCluster;
import org.apache.catalina.tribes.Channel;
import org.apache.catalina.tribes.group.GroupChannel;
import org.apache.catalina.tribes.group.interceptors.MessageDispatchInterceptor;
import org.apache.catalina.tribes.group.interceptors.OrderInterceptor;
import org.apache.catalina.tribes.group.interceptors.TcpFailureDetector;
import org.apache.catalina.tribes.group.interceptors.TcpPingInterceptor;
import org.apache.catalina.tribes.membership.StaticMember;
import org.apache.catalina.tribes.membership.StaticMembershipService;
import org.apache.catalina.tribes.transport.nio.NioReceiver;

/**
 * The {@code <Cluster>} of a node, built in code as Tomcat's clustering how-to configures it for static
 * membership: a {@link SimpleTcpCluster} whose Tribes channel receives on 127.0.0.1, knows its members
 * from {@link TomcatNodeOptions#members()} ({@link StaticMembershipService}, TCP pings and failure
 * detection instead of multicast heartbeats, messages kept in order per sender), and a manager template ({@link DeltaManager} or
 * {@link BackupManager}); {@link ReplicationValve} sends each request's changes when it ends, and
 * {@link JvmRouteBinderValve} re-issues the session cookie with this node's route when it serves a session
 * that came from another node (failover).
 */
final class ClusterSetup {

    private static final String BIND_ADDRESS = "127.0.0.1";

    private ClusterSetup() {
    }

    static SimpleTcpCluster create(TomcatNodeOptions options, ChannelBytes bytes) throws IOException {
        SimpleTcpCluster cluster = new SimpleTcpCluster();
        cluster.setClusterName("tomcat-peers");
        cluster.setChannelSendOptions(sendOptions(options.delivery()));
        cluster.setManagerTemplate(manager(options));
        cluster.setChannel(channel(options, bytes));
        cluster.addValve(new ReplicationValve());
        cluster.addValve(new JvmRouteBinderValve());
        if (options.manager() == SessionReplication.DELTA) {
            cluster.addClusterListener(new ClusterSessionListener());
        }
        return cluster;
    }

    private static int sendOptions(Delivery delivery) {
        return switch (delivery) {
            case ASYNC -> Channel.SEND_OPTIONS_ASYNCHRONOUS;
            case SYNC -> Channel.SEND_OPTIONS_SYNCHRONIZED_ACK | Channel.SEND_OPTIONS_USE_ACK;
        };
    }

    private static ClusterManagerBase manager(TomcatNodeOptions options) {
        return switch (options.manager()) {
            case DELTA -> {
                DeltaManager delta = new DeltaManager();
                delta.setExpireSessionsOnShutdown(false);
                delta.setNotifyListenersOnReplication(true);
                // a joining node waits at most this long for the others' sessions
                delta.setStateTransferTimeout(10);
                yield delta;
            }
            case NONE -> throw new IllegalArgumentException("no cluster without replication");
            case BACKUP -> {
                BackupManager backup = new BackupManager();
                backup.setNotifyListenersOnReplication(true);
                yield backup;
            }
        };
    }

    private static GroupChannel channel(TomcatNodeOptions options, ChannelBytes bytes) throws IOException {
        GroupChannel channel = new GroupChannel();
        NioReceiver receiver = new NioReceiver();
        receiver.setAddress(BIND_ADDRESS);
        receiver.setPort(options.receiverPort());
        receiver.setAutoBind(1); // the members know this exact port: never move to another
        channel.setChannelReceiver(receiver);

        StaticMembershipService membership = new StaticMembershipService();
        for (ClusterMember member : options.members()) {
            StaticMember staticMember = new StaticMember(member.host(), member.port(), 0);
            staticMember.setUniqueId(member.uniqueId());
            membership.addStaticMember(staticMember);
        }
        channel.setMembershipService(membership);

        // async sends leave through MessageDispatchInterceptor's thread pool, which can reorder them (e.g. the
        // shop's sign-on: an id change, then the new id's delta); numbering them above it restores the order
        // at the receiver, as Cohort's async delivery keeps per-session order
        channel.addInterceptor(new OrderInterceptor());
        channel.addInterceptor(new TcpPingInterceptor());
        channel.addInterceptor(new TcpFailureDetector());
        channel.addInterceptor(new MessageDispatchInterceptor());
        // last, so nearest the transport: counts every message's packaged bytes as they go on and come off the wire
        channel.addInterceptor(new ByteCountingInterceptor(bytes));
        return channel;
    }
}
