package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.CommandRun;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Poll;
import io.cohort.testapp.TestWars;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cohort deploy}, {@code undeploy} and {@code status} against a real two-node local cluster:
 * two node JVMs started by {@link LocalCluster} (the code path of {@code cohort cluster}) on free
 * ports, with this test's class path.
 *
 * <p>The cluster starts with one application already deployed ({@code --war}), as a cluster in
 * service has: the deployment time measured is about deploying to a running node, not about a fresh
 * JVM loading and compiling Jetty's annotation, JSP and JSTL machinery for the first time (which
 * alone takes several seconds on a two-core machine). The target is {@value #DEPLOY_TARGET_SECONDS} s
 * (about 2 s measured on an idle two-core machine, 2.2 s with four CPU-bound loops beside it); the
 * test prints the time and fails only past {@value #DEPLOY_BOUND_SECONDS} s, a bound a busy CI
 * machine cannot reach by scheduling delay alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalClusterCommandsTest {

    private static final int DEPLOY_TARGET_SECONDS = 5;
    private static final int DEPLOY_BOUND_SECONDS = 20;
    private static final Duration DEPLOY_BOUND = Duration.ofSeconds(DEPLOY_BOUND_SECONDS);

    @TempDir
    static Path dir;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private LocalCluster cluster;
    private ClusterState state;
    private Path stateFile;

    @BeforeAll
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void startTwoNodeCluster() throws Exception {
        LocalClusterPlan plan = new LocalClusterPlan(dir.resolve("cluster"), LocalClusterPlan.hostPerNode(2), 0, 0,
                List.of(war("running", "r1")), Duration.ofSeconds(10));
        cluster = new LocalCluster(plan, JavaCommand.current());
        state = cluster.start(Duration.ofSeconds(90));
        stateFile = plan.stateFile();
        for (ClusterState.Node node : state.nodes()) {
            // the first JSP request compiles it: a JVM's first use of Jasper, slow on a busy machine
            assertThat(get(node.http().resolve("/running/index.jsp"), Duration.ofSeconds(60)).body())
                    .contains("version r1");
        }
    }

    @AfterAll
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.stop();
            assertThat(cluster.processes()).noneMatch(NodeProcess::alive);
            assertThat(stateFile).doesNotExist();
        }
    }

    private static Path war(String name, String version) throws Exception {
        Files.createDirectories(dir.resolve("wars"));
        return TestWars.write(dir.resolve("wars").resolve(name + ".war"), version, true);
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return get(uri, DEPLOY_BOUND);
    }

    private HttpResponse<String> get(URI uri, Duration timeout) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void deployedWarIsServedByEveryNodeWithinSeconds() throws Exception {
        Path war = war("app", "v1");
        long start = System.nanoTime();

        CommandRun run = CommandRun.of("deploy", war.toString(), "--cluster", stateFile.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        for (ClusterState.Node node : state.nodes()) {
            Poll.until(DEPLOY_BOUND, "/app/version on " + node.name(),
                    () -> get(node.http().resolve("/app/version")).body().equals("v1"));
            Poll.until(DEPLOY_BOUND, "/app/index.jsp on " + node.name(),
                    () -> get(node.http().resolve("/app/index.jsp")).body().contains("jsp-1 jsp-2 jsp-3 version v1"));
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        System.out.printf("cohort deploy until served by both nodes: %d ms (target %d s)%n", took.toMillis(),
                DEPLOY_TARGET_SECONDS);
        assertThat(took).as("deploy until served by both nodes").isLessThan(DEPLOY_BOUND);
        assertThat(run.out()).containsPattern("n1\\s+deployed\\s+/app").containsPattern("n2\\s+deployed\\s+/app")
                .contains("Deployed app to 2 of 2 nodes.");
    }

    @Test
    void undeployedAppAnswers404OnEveryNode() throws Exception {
        Path war = war("gone", "v1");
        assertThat(CommandRun.of("deploy", war.toString(), "--cluster", stateFile.toString()).exitCode()).isZero();
        for (ClusterState.Node node : state.nodes()) {
            assertThat(get(node.http().resolve("/gone/version")).statusCode()).isEqualTo(200);
        }

        CommandRun run = CommandRun.of("undeploy", "gone", "--cluster", stateFile.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        for (ClusterState.Node node : state.nodes()) {
            assertThat(get(node.http().resolve("/gone/version")).statusCode()).as(node.name()).isEqualTo(404);
        }
        assertThat(CommandRun.of("undeploy", "gone", "--cluster", stateFile.toString()).exitCode())
                .as("undeploying what no node has").isEqualTo(ExitCode.FAILURE);
    }

    @Test
    void applicationsGivenAtStartAreServedByEveryNode() throws Exception {
        for (ClusterState.Node node : state.nodes()) {
            assertThat(get(node.http().resolve("/running/version")).body()).as(node.name()).isEqualTo("r1");
        }
    }

    @Test
    void statusListsEveryNodeUp() {
        CommandRun run = CommandRun.of("status", "--cluster", stateFile.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.OK);
        assertThat(run.out().lines()).first().asString().startsWith("NODE").contains("HOST", "STATE", "APPS",
                "SESSIONS", "SPARE");
        assertThat(run.out()).containsPattern("(?m)^n1\\s+host1\\s+UP\\s")
                .containsPattern("(?m)^n2\\s+host2\\s+UP\\s+\\S*/running")
                .contains("2 of 2 nodes UP.");
    }

    @Test
    void stateFileNamesEveryNodeProcessAndIsPrivate() throws Exception {
        ClusterState read = ClusterState.read(stateFile);

        assertThat(read.pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(read.nodes()).extracting(ClusterState.Node::name).containsExactly("n1", "n2");
        assertThat(read.nodes()).extracting(ClusterState.Node::pid)
                .containsExactlyElementsOf(cluster.processes().stream().map(NodeProcess::pid).toList())
                .allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        assertThat(java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(stateFile)))
                .isEqualTo("rw-------");
    }
}
