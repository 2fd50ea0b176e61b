package io.cohort.cli.cluster;

import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.net.PresetPorts;
import java.net.URI;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;

/**
 * For tests: a local cluster of shop nodes in separate JVMs replicating with a given pattern, on an
 * embedded H2 database, with one balancer per host in this JVM, as {@code cohort cluster} runs it.
 */
final class ReplicatingShopCluster implements AutoCloseable {

    final LocalCluster cluster;
    final LocalBalancers balancers;
    private final EmbeddedH2Server database;

    private ReplicatingShopCluster(EmbeddedH2Server database, LocalCluster cluster, LocalBalancers balancers) {
        this.database = database;
        this.cluster = cluster;
        this.balancers = balancers;
    }

    static ReplicatingShopCluster start(Path dir, int nodes, String pattern) throws Exception {
        EmbeddedH2Server database = EmbeddedH2Server.start(dir.resolve("h2"));
        List<Integer> ports = PresetPorts.pick(nodes);
        LocalClusterPlan plan = new LocalClusterPlan(dir, LocalClusterPlan.hostPerNode(nodes), 0, 0,
                List.of(Path.of("target/test-wars/jpetstore.war").toAbsolutePath()), Duration.ofSeconds(15))
                .withDatabase(database.database())
                .withReplication(new ReplicationPlan(ReplicationPattern.parse(pattern), ports));
        LocalCluster cluster = new LocalCluster(plan, JavaCommand.current());
        try {
            ClusterState state = cluster.start(Duration.ofSeconds(180));
            return new ReplicatingShopCluster(database, cluster, LocalBalancers.start(state.nodes(), 0, 0));
        } catch (Exception e) {
            cluster.stop();
            database.close();
            throw e;
        }
    }

    /** The shop through the balancer of host1. */
    ShopHost shopThroughFirstBalancer() {
        URI balancer = balancers.first();
        return new ShopHost() {
            @Override
            public URI base() {
                return URI.create(balancer + CONTEXT_PATH);
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * How many sessions have an attribute of this name in the database protocol's tables (default prefix): with
     * asynchronous writes, what a node has made durable so far.
     */
    long sessionsInDatabaseWith(String attribute) throws SQLException {
        ShopDatabase db = database.database();
        try (Connection connection = DriverManager.getConnection(db.url(), db.user(), db.password().orElse(""));
             PreparedStatement count = connection.prepareStatement(
                     "SELECT COUNT(*) FROM cohort_session_attributes WHERE attr_name = ?")) {
            count.setString(1, attribute);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    NodeProcess node(String name) {
        return cluster.processes().stream().filter(p -> p.node().name().equals(name)).findFirst().orElseThrow();
    }

    @Override
    public void close() throws Exception {
        balancers.close();
        cluster.stop();
        database.close();
    }
}
