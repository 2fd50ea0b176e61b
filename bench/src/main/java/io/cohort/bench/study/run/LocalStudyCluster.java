package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.sut.NodeProbe;
import io.cohort.bench.sut.SystemUnderTest;
import io.cohort.cli.cluster.ClusterState;
import io.cohort.cli.cluster.LocalBalancers;
import io.cohort.cli.cluster.LocalCluster;
import io.cohort.cli.cluster.LocalClusterPlan;
import io.cohort.cli.cluster.NodeProcess;
import io.cohort.cli.cluster.ReplicationPattern;
import io.cohort.cli.cluster.ReplicationPlan;
import io.cohort.cli.cluster.StartupFailure;
import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * A cluster the bench starts for one experiment, the way {@code cohort cluster} does: N node JVMs (free ports,
 * one emulated host each) replicating with the experiment's pattern on the run's shared database, and one
 * balancer per host ({@code roundrobin:local}) in this JVM. {@link #start} returns once every node is UP, the
 * shop answers through every balancer and one visitor per balancer has walked the whole scenario (so every
 * node has compiled its pages before the warm-up); {@link #close} stops the balancers and the nodes (SIGTERM, then SIGKILL)
 * and removes the nodes' webapps and work directories (their logs and configurations stay).
 */
public final class LocalStudyCluster implements SystemUnderTest {

    private static final Duration GRACEFUL_STOP = Duration.ofSeconds(5);
    private static final String CONTEXT_PATH = "/jpetstore";

    private final Path dir;
    private final LocalCluster cluster;
    private volatile LocalBalancers balancers;
    private volatile ClusterState state;

    private final String pattern;
    private final int nodeCount;

    private LocalStudyCluster(Path dir, LocalCluster cluster, String pattern, int nodeCount) {
        this.pattern = pattern;
        this.nodeCount = nodeCount;
        this.dir = dir;
        this.cluster = cluster;
    }

    /**
     * Starts the cluster of {@code spec} in {@code <workDir>/<spec id>}. On failure everything started is stopped.
     *
     * @param started called with the cluster before anything runs, so that a Ctrl-C can stop it at any moment
     * @throws StartupFailure if a node exits or does not come up in time (it names the node and its log)
     * @throws IOException    if the directory cannot be written or the shop does not answer in time
     */
    public static LocalStudyCluster start(ExperimentSpec spec, StudyEnvironment environment,
            Consumer<LocalStudyCluster> started) throws Exception {
        Path dir = environment.workDir().resolve(spec.id()).toAbsolutePath().normalize();
        ReplicationPattern pattern = ReplicationPattern.parse(spec.pattern());
        List<Integer> ports = pattern.replicates() ? PresetPorts.pick(spec.nodes()) : List.of();
        LocalClusterPlan plan = new LocalClusterPlan(dir, LocalClusterPlan.hostPerNode(spec.nodes()), 0, 0,
                List.of(environment.shopWar()), GRACEFUL_STOP)
                .withDatabase(environment.database())
                .withReplication(new ReplicationPlan(pattern, ports));
        LocalStudyCluster study = new LocalStudyCluster(dir, new LocalCluster(plan, environment.nodeJava()),
                spec.pattern(), spec.nodes());
        started.accept(study);
        try {
            study.state = study.cluster.start(environment.startTimeout());
            study.balancers = LocalBalancers.start(study.state.nodes(), 0, 0);
            ShopReadiness.await(study.shops(), environment.accounts(), environment.startTimeout(), dir);
            return study;
        } catch (Exception e) {
            study.close();
            throw e;
        }
    }

    @Override
    public String description() {
        return "cohort-" + pattern + " x" + nodeCount + " behind one Cohort balancer per host";
    }

    @Override
    public List<URI> shops() {
        return balancers.running().stream().map(r -> URI.create(r.server().uri().toString()
                .replaceAll("/$", "") + CONTEXT_PATH)).toList();
    }

    @Override
    public List<NodeProbe> nodes() {
        return state.nodes().stream().map(n -> new NodeProbe(n.name(), OptionalLong.of(n.pid()),
                Optional.of(n.admin().resolve("/metrics")))).toList();
    }

    /** SIGKILLs the first node (host1's own node, so host1's balancer must fail its users over). */
    @Override
    public String killOneNode() throws InterruptedException {
        NodeProcess victim = cluster.processes().get(0);
        victim.process().destroyForcibly();
        victim.process().waitFor();
        return victim.node().name();
    }

    @Override
    public List<String> exitedNodes() {
        return cluster.processes().stream().filter(p -> !p.alive()).map(p -> p.node().name()).toList();
    }

    @Override
    public void close() {
        LocalBalancers running = balancers;
        if (running != null) {
            running.close();
        }
        try {
            cluster.stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (NodeProcess node : cluster.processes()) {
            WorkTrees.delete(node.node().webapps());
            WorkTrees.delete(node.node().home().resolve("work"));
        }
    }

}
