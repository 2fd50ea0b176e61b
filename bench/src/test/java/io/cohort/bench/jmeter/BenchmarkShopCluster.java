package io.cohort.bench.jmeter;

import io.cohort.balancer.BalancerServer;
import io.cohort.cli.cluster.ClusterState;
import io.cohort.cli.cluster.EmbeddedH2Server;
import io.cohort.cli.cluster.JavaCommand;
import io.cohort.cli.cluster.LocalCluster;
import io.cohort.cli.cluster.LocalClusterPlan;
import io.cohort.cli.cluster.ReplicationPattern;
import io.cohort.cli.cluster.ReplicationPlan;
import io.cohort.cli.cluster.StartupFailure;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.Policy;
import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * For tests: the shop as the benchmark drives it, built with the launcher's own code
 * ({@link LocalCluster}, as {@code cohort cluster} does): N node JVMs replicating with a pattern of
 * the study, the shop on an embedded H2 server loaded with a small benchmark data set, and one
 * balancer in this JVM spreading new sessions round robin over the nodes. Every port is a free
 * loopback port. {@link #close()} stops all of it; node JVMs also exit with this JVM.
 */
final class BenchmarkShopCluster implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);

    private final EmbeddedH2Server database;
    private final LocalCluster cluster;
    private final ClusterState state;
    private final BalancerServer balancer;

    private BenchmarkShopCluster(EmbeddedH2Server database, LocalCluster cluster, ClusterState state,
            BalancerServer balancer) {
        this.database = database;
        this.cluster = cluster;
        this.state = state;
        this.balancer = balancer;
    }

    /**
     * Starts the database, the nodes and the balancer, and returns when all nodes are UP.
     *
     * @param dir     the cluster's directory (node homes, logs, H2 files)
     * @param war     the shop's WAR
     * @param nodes   how many nodes
     * @param pattern the replication pattern, e.g. {@code 2211}
     * @param data    the benchmark data set the shop loads on first use
     */
    static BenchmarkShopCluster start(Path dir, Path war, int nodes, String pattern, ShopData data)
            throws IOException, StartupFailure, InterruptedException {
        EmbeddedH2Server database = EmbeddedH2Server.start(dir.resolve("h2"));
        LocalCluster cluster = null;
        try {
            LocalClusterPlan plan = new LocalClusterPlan(dir, LocalClusterPlan.hostPerNode(nodes), 0, 0, List.of(war),
                    Duration.ofSeconds(10))
                    .withDatabase(database.database())
                    .withReplication(new ReplicationPlan(ReplicationPattern.parse(pattern), PresetPorts.pick(nodes)));
            JavaCommand current = JavaCommand.current();
            List<String> options = new ArrayList<>(current.jvmOptions());
            options.addAll(data.systemProperties());
            options.add("-Xmx256m");
            // the nodes serve a few seconds of load: C1 alone starts them sooner on a busy machine
            options.add("-XX:TieredStopAtLevel=1");
            cluster = new LocalCluster(plan, new JavaCommand(current.java(), current.classPath(), options));
            ClusterState state = cluster.start(START_TIMEOUT);
            return new BenchmarkShopCluster(database, cluster, state, startBalancer(state.nodes()));
        } catch (IOException | StartupFailure | InterruptedException | RuntimeException e) {
            stopQuietly(cluster, database);
            throw e;
        } catch (Exception e) {
            stopQuietly(cluster, database);
            throw new IOException("the balancer did not start: " + e.getMessage(), e);
        }
    }

    private static BalancerServer startBalancer(List<ClusterState.Node> nodes) throws Exception {
        List<BalancerMember> members = nodes.stream()
                .map(n -> new BalancerMember(n.name(), n.host(), n.http(), n.admin().resolve("/health"), 1))
                .toList();
        return BalancerServer.start(BalancerConfig.defaults(members).withPorts(0, 0)
                .withPolicy(Policy.ROUND_ROBIN, "localhost"));
    }

    /** The balancer's port on 127.0.0.1. */
    int balancerPort() {
        return balancer.uri().getPort();
    }

    /** The shop's address through the balancer, on 127.0.0.1. */
    URI shopThroughBalancer() {
        return URI.create("http://127.0.0.1:" + balancerPort() + "/jpetstore");
    }

    /** The shop's address on each node, bypassing the balancer. */
    List<URI> shopOnEachNode() {
        return state.nodes().stream()
                .map(n -> URI.create("http://127.0.0.1:" + n.http().getPort() + "/jpetstore"))
                .toList();
    }

    List<ClusterState.Node> nodes() {
        return state.nodes();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            balancer.stop();
        } finally {
            cluster.stop();
            database.close();
        }
    }

    private static void stopQuietly(LocalCluster cluster, EmbeddedH2Server database) throws InterruptedException {
        try {
            if (cluster != null) {
                cluster.stop();
            }
        } finally {
            database.close();
        }
    }

    /**
     * The benchmark data set the nodes' shop loads into the empty database (jpetstore-app's
     * {@code jpetstore.dataset=benchmark}): accounts {@code user0..user<accounts-1>} with the password
     * {@code password}, and products named so that each keyword of {@code /keywords.txt} finds about
     * 100 of them.
     */
    record ShopData(int accounts, int products) {

        ShopData {
            if (accounts < 1 || products < 100) {
                throw new IllegalArgumentException("at least 1 account and 100 products: " + accounts + ", " + products);
            }
        }

        List<String> systemProperties() {
            return List.of("-Djpetstore.dataset=benchmark", "-Djpetstore.benchmark.accounts=" + accounts,
                    "-Djpetstore.benchmark.products=" + products);
        }
    }
}
