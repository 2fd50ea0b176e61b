package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LocalClusterPlanTest {

    @TempDir
    Path dir;

    private LocalClusterPlan plan(int nodes, int basePort, int adminBasePort, List<Path> wars) {
        return new LocalClusterPlan(dir, LocalClusterPlan.hostPerNode(nodes), basePort, adminBasePort, wars,
                Duration.ofSeconds(30));
    }

    @Test
    void nodesAreNamedInOrderWithConsecutivePortsAndAHostEach() {
        List<PlannedNode> nodes = plan(3, 8081, 9081, List.of()).nodes();

        assertThat(nodes).extracting(PlannedNode::name).containsExactly("n1", "n2", "n3");
        assertThat(nodes).extracting(PlannedNode::host).containsExactly("host1", "host2", "host3");
        assertThat(nodes).extracting(PlannedNode::httpPort).containsExactly(8081, 8082, 8083);
        assertThat(nodes).extracting(PlannedNode::adminPort).containsExactly(9081, 9082, 9083);
        assertThat(nodes).extracting(PlannedNode::home).containsExactly(dir.resolve("n1"), dir.resolve("n2"),
                dir.resolve("n3"));
    }

    @Test
    void baseZeroGivesEveryNodeFreePorts() {
        assertThat(plan(2, 0, 0, List.of()).nodes()).allSatisfy(node -> {
            assertThat(node.httpPort()).isZero();
            assertThat(node.adminPort()).isZero();
        });
    }

    @Test
    void aNodesStopMayTakeTheRequestsDrainAndThenEachApplicationsHandOver() throws Exception {
        assertThat(plan(2, 0, 0, List.of()).longestStop()).isEqualTo(Duration.ofSeconds(30));
        assertThat(plan(2, 0, 0, List.of(dir.resolve("a.war"), dir.resolve("b.war"))).longestStop())
                .isEqualTo(Duration.ofSeconds(90));

        LocalClusterPlan started = plan(2, 0, 0, List.of());
        PlannedNode second = started.write().get(1);
        Files.createDirectories(second.webapps());
        Files.writeString(second.webapps().resolve("shop.war"), "deployed later with cohort deploy");
        assertThat(started.longestStop()).as("counted when asked").isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void givenHostsAreTakenInTurn() {
        assertThat(LocalClusterPlan.roundRobin(List.of("a", "b"), 5)).containsExactly("a", "b", "a", "b", "a");
    }

    @Test
    void overlappingOrOutOfRangePortsAreRejected() {
        assertThatThrownBy(() -> plan(3, 8081, 8083, List.of())).hasMessageContaining("overlap");
        assertThatThrownBy(() -> plan(3, 65_534, 0, List.of())).hasMessageContaining("does not leave room");
        assertThatThrownBy(() -> plan(0, 0, 0, List.of())).hasMessageContaining("1 to 64 nodes");
        assertThatThrownBy(() -> new LocalClusterPlan(dir, List.of("a b"), 0, 0, List.of(), Duration.ZERO))
                .hasMessageContaining("invalid host name");
    }

    @Test
    void twoWarsOfOneFileNameAreRejectedBecauseOneWouldReplaceTheOther() {
        assertThatThrownBy(() -> plan(2, 0, 0, List.of(dir.resolve("a/app.war"), dir.resolve("b/app.war"))))
                .hasMessageStartingWith("two WARs have one file name: ");
    }

    @Test
    void writtenConfigurationsAreValidAndDescribeEachNode() throws Exception {
        List<PlannedNode> nodes = plan(2, 18081, 19081, List.of()).write();

        for (PlannedNode node : nodes) {
            CohortConfig config;
            try (InputStream in = Files.newInputStream(node.configFile())) {
                config = ConfigLoader.parse(node.configFile().toString(), in, node.home(),
                        Map.of(PlannedNode.TOKEN_ENV, "secret")::get);
            }
            assertThat(config.node().name()).isEqualTo(node.name());
            assertThat(config.node().host()).isEqualTo(node.host());
            assertThat(config.node().httpPort()).isEqualTo(node.httpPort());
            assertThat(config.node().webapps()).isEqualTo(node.webapps());
            assertThat(config.node().gracefulStop()).isEqualTo(Duration.ofSeconds(30));
            assertThat(config.admin().port()).isEqualTo(node.adminPort());
            assertThat(config.admin().apiEnabled()).isTrue();
            assertThat(node.webapps()).isDirectory();
        }
    }

    @Test
    void warsAreCopiedIntoEveryNodesWebapps() throws Exception {
        Path war = Files.write(dir.resolve("shop.war"), new byte[] {1, 2, 3});

        List<PlannedNode> nodes = plan(2, 0, 0, List.of(war)).write();

        assertThat(nodes).allSatisfy(node -> assertThat(node.webapps().resolve("shop.war")).hasBinaryContent(
                new byte[] {1, 2, 3}));
    }

    @Test
    void aStateFileWhosePidWasReusedByALaterProcessIsStale() throws Exception {
        Process later = new ProcessBuilder("sleep", "30").start(); // took the pid after the cluster process died
        try {
            java.time.Instant clusterUp = later.info().startInstant().orElseThrow().minusSeconds(60);
            ClusterState reused = new ClusterState(ClusterState.FORMAT, later.pid(), clusterUp.toString(), "token", List.of());
            ClusterState running = new ClusterState(ClusterState.FORMAT, ProcessHandle.current().pid(),
                    java.time.Instant.now().toString(), "token", List.of());

            assertThat(reused.clusterProcessAlive()).as("a process that started after the cluster was up").isFalse();
            assertThat(running.clusterProcessAlive()).as("the process that wrote it, still running").isTrue();
        } finally {
            later.destroy();
        }
    }

    @Test
    void stateFileIsReadableByItsOwnerOnlyAndReadsBack() throws Exception {
        ClusterState state = new ClusterState(ClusterState.FORMAT, 42, "2026-01-01T00:00:00Z", "token",
                List.of(new ClusterState.Node("n1", "host1", java.net.URI.create("http://127.0.0.1:8081"),
                        java.net.URI.create("http://127.0.0.1:9081"), 43, "/tmp/n1/node.log")));
        Path file = dir.resolve(ClusterState.FILE_NAME);

        state.write(file);

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(ClusterState.read(file)).isEqualTo(state);
    }
}
