package io.cohort.cli.manage;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.CommandRun;
import io.cohort.cli.ExitCode;
import io.cohort.cli.cluster.ClusterState;
import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Deploy, undeploy and status against clusters that are not there: no node is started here. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ManageCommandErrorsTest {

    @TempDir
    Path dir;

    /** A cluster file whose only member's admin port nobody listens on. */
    private Path clusterFileOfDeadCluster() throws IOException {
        int closedPort = PresetPorts.one(); // below the ephemeral range: no socket bound to port 0 can be given it
        Path file = dir.resolve(ClusterState.FILE_NAME);
        new ClusterState(ClusterState.FORMAT, 1, "2026-01-01T00:00:00Z", "token", List.of(new ClusterState.Node("n1",
                "host1", URI.create("http://127.0.0.1:1"), URI.create("http://127.0.0.1:" + closedPort), 2, "n1.log")))
                .write(file);
        return file;
    }

    @Test
    void statusWithoutClusterFileIsAUsageErrorThatSaysHowToStartOne() {
        CommandRun run = CommandRun.of("status", "--cluster", dir.resolve("none.json").toString());

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("no cluster state file").contains("cohort cluster");
    }

    @Test
    void deployOfAMissingWarIsAUsageError() {
        CommandRun run = CommandRun.of("deploy", dir.resolve("nope.war").toString(), "--admin", "http://127.0.0.1:1");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(run.err()).contains("no such WAR file");
    }

    @Test
    void clusterFileAndAdminUrlsTogetherAreAUsageError() throws Exception {
        Path war = Files.write(dir.resolve("app.war"), new byte[] {1});

        CommandRun run = CommandRun.of("deploy", war.toString(), "--cluster", clusterFileOfDeadCluster().toString(),
                "--admin", "http://127.0.0.1:1");

        assertThat(run.exitCode()).isEqualTo(ExitCode.USAGE);
    }

    @Test
    void deployToAnUnreachableMemberFailsWithOneAndNamesTheMember() throws Exception {
        Path war = Files.write(dir.resolve("app.war"), new byte[] {1});

        CommandRun run = CommandRun.of("deploy", war.toString(), "--cluster", clusterFileOfDeadCluster().toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).contains("n1").contains("FAILED: cannot connect").contains("Deployed app to 0 of 1 nodes");
    }

    @Test
    void statusShowsAnUnreachableMemberAsDownAndFails() throws Exception {
        CommandRun run = CommandRun.of("status", "--cluster", clusterFileOfDeadCluster().toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.out()).containsPattern("n1\\s+-\\s+DOWN").contains("0 of 1 nodes UP");
    }

    @Test
    void aTimeoutOfZeroIsAUsageErrorForEveryManageCommand() throws Exception {
        Path war = Files.write(dir.resolve("app.war"), new byte[] {1});
        String cluster = clusterFileOfDeadCluster().toString();
        for (String[] args : new String[][] {{"status", "--timeout", "0s", "--cluster", cluster},
            {"deploy", war.toString(), "--timeout", "0ms", "--cluster", cluster},
            {"undeploy", "app", "--timeout", "000s", "--cluster", cluster}}) {
            CommandRun run = CommandRun.of(args);

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.USAGE);
            assertThat(run.err()).as(run.toString()).contains("--timeout").contains("above zero");
            assertThat(run.out()).as("no member was asked").doesNotContain("n1");
        }
    }
}
