package io.cohort.bench.peers;

import io.cohort.bench.tomcat.Delivery;
import io.cohort.bench.tomcat.SessionReplication;
import io.cohort.bench.tomcat.TomcatCluster;
import io.cohort.bench.tomcat.TomcatClusterPlan;
import io.cohort.cli.cluster.ShopDatabase;
import io.cohort.net.PresetPorts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The Tomcat 11 cluster baseline as a system under test: {@code size} Tomcat node JVMs (module
 * {@code bench/tomcat}, which runs them with its own class path, never this JVM's) replicating with
 * DeltaManager or BackupManager, on the shop's database, behind Cohort's balancer or HAProxy. Tomcat's
 * jvmRoute puts the node name after the session id, as Cohort does, so both fronts stick.
 */
public final class TomcatSystem extends PeerSystem {


    private final TomcatCluster cluster;

    private TomcatSystem(TomcatCluster cluster, FrontDoor front, List<BackendNode> nodes, String description) {
        super(description, front, nodes);
        this.cluster = cluster;
    }

    /**
     * @param manager    DeltaManager (all-to-all), BackupManager (one backup) or none (StandardManager, no cluster)
     * @param delivery   async (Tomcat's default) or sync channel sends
     * @param jvmOptions options of each node JVM, e.g. {@code -Xmx1g}
     */
    public static TomcatSystem start(Path dir, int size, SessionReplication manager, Delivery delivery, Path war,
            ShopDatabase database, List<String> jvmOptions, FrontKind frontKind, int frontPort, Duration timeout)
            throws Exception {
        List<Integer> httpPorts = new ArrayList<>();
        List<Integer> receiverPorts = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            httpPorts.add(PresetPorts.one());
            receiverPorts.add(PresetPorts.one());
        }
        TomcatClusterPlan plan = new TomcatClusterPlan(dir, manager, delivery, httpPorts, receiverPorts, war,
                database.url(), database.user(), database.password(), jvmOptions);
        TomcatCluster cluster = TomcatCluster.start(plan, TomcatCluster.nodeClassPath(), timeout);
        try {
            List<BackendNode> nodes = cluster.nodes().stream()
                    .map(n -> new BackendNode(n.name(), n.http(), n.health(), n.pid(), Optional.of(n.metrics())))
                    .toList();
            FrontDoor front = FrontDoor.start(frontKind, nodes, frontPort, dir.resolve("front"), Duration.ofSeconds(30));
            return new TomcatSystem(cluster, front, nodes, "tomcat-" + manager.argument() + "-" + delivery.argument()
                    + " x" + size + " behind " + frontKind.label());
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
    }

    @Override
    protected void stopNodes() throws InterruptedException {
        cluster.close();
    }
}
