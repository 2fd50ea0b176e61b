package io.cohort.bench.peers;

import io.cohort.cli.cluster.ClusterState;
import io.cohort.cli.cluster.JavaCommand;
import io.cohort.cli.cluster.LocalCluster;
import io.cohort.cli.cluster.LocalClusterPlan;
import io.cohort.cli.cluster.ReplicationPattern;
import io.cohort.cli.cluster.ReplicationPlan;
import io.cohort.cli.cluster.ShopDatabase;
import io.cohort.net.PresetPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cohort nodes (separate JVMs, started by the launcher's own {@link LocalCluster}) replicating with a study
 * pattern, behind Cohort's balancer or HAProxy: the system the peers are compared with, and the way to
 * compare Cohort's balancer with HAProxy on the same backends. Each node's metrics are its admin
 * {@code /metrics}.
 */
public final class CohortSystem extends PeerSystem {

    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(15);


    private final LocalCluster cluster;

    private CohortSystem(String description, LocalCluster cluster, FrontDoor front, List<BackendNode> nodes) {
        super(description, front, nodes);
        this.cluster = cluster;
    }

    /**
     * Starts {@code size} nodes in {@code <dir>/n1..nN} with the shop WAR on the given database, then the front.
     *
     * @param pattern   e.g. {@code 2211}, or {@code none}
     * @param frontPort the front's port, 0 for a free one
     * @param timeout   how long the nodes may take to come up
     */
    public static CohortSystem start(Path dir, int size, ReplicationPattern pattern, Path war, ShopDatabase database,
            FrontKind frontKind, int frontPort, Duration timeout) throws Exception {
        List<Integer> replicationPorts = new ArrayList<>();
        if (pattern.replicates()) {
            for (int k = 0; k < size; k++) {
                replicationPorts.add(PresetPorts.one());
            }
        }
        return start(dir, size, pattern, replicationPorts, JavaCommand.current(), war, database, frontKind, frontPort,
                timeout);
    }

    /**
     * As {@link #start(Path, int, ReplicationPattern, Path, ShopDatabase, FrontKind, int, Duration)}, with the
     * nodes' replication ports (one per node when the pattern replicates, else none) and JVM command given, e.g.
     * the built distribution's {@code lib/*} as a real installation runs a node.
     */
    public static CohortSystem start(Path dir, int size, ReplicationPattern pattern, List<Integer> replicationPorts,
            JavaCommand nodeJava, Path war, ShopDatabase database, FrontKind frontKind, int frontPort,
            Duration timeout) throws Exception {
        LocalClusterPlan plan = new LocalClusterPlan(dir, LocalClusterPlan.hostPerNode(size), 0, 0, List.of(war),
                GRACEFUL_STOP).withDatabase(database).withReplication(new ReplicationPlan(pattern, replicationPorts));
        LocalCluster cluster = new LocalCluster(plan, nodeJava);
        try {
            ClusterState state = cluster.start(timeout);
            List<BackendNode> nodes = state.nodes().stream()
                    .map(n -> new BackendNode(n.name(), n.http(), n.admin().resolve("/health"), n.pid(),
                            Optional.of(n.admin().resolve("/metrics"))))
                    .toList();
            FrontDoor front = FrontDoor.start(frontKind, nodes, frontPort, dir.resolve("front"), Duration.ofSeconds(30));
            String description = "cohort-" + pattern.name() + " x" + size + " behind " + frontKind.label();
            return new CohortSystem(description, cluster, front, nodes);
        } catch (Exception e) {
            cluster.stop();
            throw e;
        }
    }

    @Override
    protected void stopNodes() throws InterruptedException {
        cluster.stop();
    }
}
