package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.cli.Poll;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code cohort cluster} as an operator runs it: a process of its own, stopped with SIGTERM. */
class ClusterProcessTest {

    @TempDir
    Path dir;

    private static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theDefaultClusterServesTheShopThroughABalancerPerHostAndSigtermStopsEverything() throws Exception {
        Path clusterDir = dir.resolve("cluster");
        Path stateFile = clusterDir.resolve(ClusterState.FILE_NAME);
        Path output = dir.resolve("cluster.out");
        Process cluster = new ProcessBuilder(JavaCommand.current().command(List.of("cluster", "--nodes", "2",
                "--base-port", "0", "--admin-base-port", "0", "--balancer-base-port", "0", "--balancer-admin-base-port", "0",
                "--replication-base-port", "0",
                "--dir", clusterDir.toString(), "--graceful-stop", "10s",
                "--shop-war", Path.of("target/test-wars/jpetstore.war").toAbsolutePath().toString())))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        List<Long> nodePids = List.of();
        try {
            Poll.until(Duration.ofSeconds(90), "cluster.json (output: " + output + ")", () -> {
                if (!cluster.isAlive()) {
                    throw new AssertionError("cohort cluster exited: " + Files.readString(output));
                }
                return Files.exists(stateFile);
            });
            ClusterState state = ClusterState.read(stateFile);
            nodePids = state.nodes().stream().map(ClusterState.Node::pid).toList();
            assertThat(state.pid()).isEqualTo(cluster.pid());
            assertThat(nodePids).hasSize(2).allMatch(ClusterProcessTest::alive);
            assertThat(cluster.descendants().map(ProcessHandle::pid).toList()).containsAll(nodePids);
            Poll.until(Duration.ofSeconds(30), "banner", () -> Files.readString(output).contains("Open:"));
            java.util.regex.Matcher balancers = java.util.regex.Pattern
                    .compile("balancer for (host\\d)\\s+(http://\\S+)").matcher(Files.readString(output));
            List<String> hosts = new java.util.ArrayList<>();
            while (balancers.find()) {
                hosts.add(balancers.group(1));
                var response = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest
                        .newBuilder(java.net.URI.create(balancers.group(2) + "/jpetstore/")).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                // roundrobin:local: a new session at host K's balancer goes to host K's node
                assertThat(response.headers().firstValue("X-Cohort-Routed").orElse(""))
                        .startsWith("n" + balancers.group(1).substring(4) + "; reason=policy");
            }
            assertThat(hosts).containsExactly("host1", "host2");
            // the balancers, their admin ports and the embedded shop database are for this machine only
            assertThat(ListeningSockets.of(cluster.pid())).as("addresses the launcher listens on").isNotEmpty()
                    .allMatch(ListeningSockets::isLoopback);

            cluster.destroy(); // SIGTERM

            assertThat(cluster.waitFor(60, TimeUnit.SECONDS)).as("cluster process exited").isTrue();
            assertThat(nodePids).noneMatch(ClusterProcessTest::alive);
            assertThat(stateFile).doesNotExist();
            assertThat(Files.readString(output)).contains("Cohort cluster of 2 nodes is up.", "Cluster stopped.");
        } finally {
            cluster.destroyForcibly();
            nodePids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void nodeThatCannotStartFailsTheClusterWithItsLogAndStopsTheOthers() throws Exception {
        try (ServerSocket taken = portFollowedByAFreeOne()) {
            // n1's HTTP port is taken, n2's (the next one) is free
            LocalClusterPlan plan = new LocalClusterPlan(dir.resolve("cluster"), List.of("host1", "host2"),
                    taken.getLocalPort(), 0, List.of(), Duration.ofSeconds(10));
            LocalCluster cluster = new LocalCluster(plan, JavaCommand.current());

            assertThatThrownBy(() -> cluster.start(Duration.ofSeconds(90)))
                    .isInstanceOfSatisfying(StartupFailure.class, failure -> {
                        assertThat(failure.node().name()).isEqualTo("n1");
                        assertThat(failure.getMessage()).contains("node n1 exited with code 1");
                        assertThat(String.join("\n", failure.logTail())).contains("failed to start");
                    });
            assertThat(cluster.processes()).hasSize(2).noneMatch(NodeProcess::alive);
            assertThat(plan.stateFile()).doesNotExist();
        }
    }

    /** A bound loopback port whose successor was free a moment ago. */
    private static ServerSocket portFollowedByAFreeOne() throws IOException {
        for (int attempt = 0; attempt < 20; attempt++) {
            ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            int next = socket.getLocalPort() + 1;
            if (next <= 65_535) {
                try {
                    new ServerSocket(next, 50, InetAddress.getLoopbackAddress()).close();
                    return socket;
                } catch (IOException taken) {
                    // try another
                }
            }
            socket.close();
        }
        throw new IOException("no free pair of consecutive ports found");
    }
}
