package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.CommandRun;
import io.cohort.cli.ExitCode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What {@code cohort cluster} says about a directory it cannot run in: one line, before it opens anything there. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterDirectoryTest {

    private static final Path SHOP = Path.of("target/test-wars/jpetstore.war").toAbsolutePath();

    @TempDir
    Path dir;

    @Test
    void aDirectoryThatIsAFileIsOneLineNotAStackTrace() throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-directory"), "x");

        CommandRun run = CommandRun.of("cluster", "--dir", file.toString(), "--shop-war", SHOP.toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FAILURE);
        assertThat(run.errLines()).as(run.toString()).singleElement().asString()
                .startsWith("cohort cluster: ").contains("not-a-directory").doesNotContain("Exception");
    }

    @Test
    void aDirectoryAnotherClusterRunsInIsRefusedBeforeTheShopDatabaseIsOpened() throws Exception {
        Process running = new ProcessBuilder("sleep", "60").start();
        try {
            Path clusterDir = Files.createDirectories(dir.resolve("cluster"));
            new ClusterState(ClusterState.FORMAT, running.pid(), Instant.now().plusSeconds(1).toString(), "token", List.of())
                    .write(clusterDir.resolve(ClusterState.FILE_NAME));

            CommandRun run = CommandRun.of("cluster", "--dir", clusterDir.toString(), "--shop-war", SHOP.toString());

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCode.FAILURE);
            assertThat(run.errLines()).as(run.toString()).singleElement().asString()
                    .contains("a cluster is already running in", "(process " + running.pid() + ")");
            // the running cluster's shop database holds its files: the refusal comes before opening them
            assertThat(clusterDir.resolve("h2")).doesNotExist();
        } finally {
            running.destroyForcibly();
        }
    }
}
