package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.cohort.cli.node.NodeAnnouncement;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A node that is UP in a group of its own (it joined before the others answered its discovery) is not yet part of
 * the cluster: startup waits until its view holds the whole group, and names it when that never happens. The node
 * here is a live process that announced an admin address where the test answers {@code /health} with the members
 * the test chooses.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClusterStartupTest {

    @TempDir
    Path home;

    private final AtomicInteger members = new AtomicInteger(1);
    private HttpServer admin;
    private Process process;

    @BeforeEach
    void serveHealth() throws IOException {
        admin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        admin.createContext("/health", exchange -> {
            byte[] body = ("{\"status\":\"UP\",\"node\":\"n2\",\"host\":\"host2\",\"applications\":1,\"sessions\":0,"
                    + "\"members\":" + members.get() + "}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        admin.start();
    }

    @AfterEach
    void stop() {
        admin.stop(0);
        if (process != null) {
            process.destroyForcibly();
        }
    }

    @Test
    void aNodeUpInAGroupOfItsOwnIsWaitedForUntilItSeesTheWholeGroup() throws Exception {
        NodeProcess node = announcedNode();
        Thread merge = new Thread(() -> {
            try {
                Thread.sleep(1_500);
            } catch (InterruptedException e) {
                return;
            }
            members.set(2); // the groups merged
        });
        merge.start();
        long started = System.nanoTime();

        List<ClusterState.Node> up = new ClusterStartup().awaitUp(List.of(node), deadline(Duration.ofSeconds(20)),
                Duration.ofSeconds(20), 2);

        assertThat(up).extracting(ClusterState.Node::name).containsExactly("n2");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).as("waited for the merge").isGreaterThanOrEqualTo(Duration.ofMillis(1_400));
        merge.join();
    }

    @Test
    void aNodeThatNeverSeesTheWholeGroupFailsTheStartNamingWhatItSaw() throws Exception {
        NodeProcess node = announcedNode();

        assertThatThrownBy(() -> new ClusterStartup().awaitUp(List.of(node), deadline(Duration.ofSeconds(2)),
                Duration.ofSeconds(2), 2))
                .isInstanceOf(StartupFailure.class)
                .hasMessageContaining("n2")
                .hasMessageContaining("saw 1 of the 2 nodes in its cluster view");
    }

    @Test
    void withoutAGroupAnUpNodeIsEnough() throws Exception {
        List<ClusterState.Node> up = new ClusterStartup().awaitUp(List.of(announcedNode()), Duration.ofSeconds(10));

        assertThat(up).extracting(ClusterState.Node::name).containsExactly("n2");
    }

    /** A live process whose node announced the test's admin address; it lives as long as the test needs. */
    private NodeProcess announcedNode() throws Exception {
        process = new ProcessBuilder("sleep", "60").start();
        PlannedNode planned = new PlannedNode("n2", "host2", 0, 0, home, Duration.ofSeconds(1), Optional.empty(), "");
        URI adminUri = URI.create("http://127.0.0.1:" + admin.getAddress().getPort());
        new NodeAnnouncement("n2", "host2", process.pid(), URI.create("http://127.0.0.1:1"), adminUri).write(planned.readyFile());
        return new NodeProcess(planned, process);
    }

    private static long deadline(Duration timeout) {
        return System.nanoTime() + timeout.toNanos();
    }
}
