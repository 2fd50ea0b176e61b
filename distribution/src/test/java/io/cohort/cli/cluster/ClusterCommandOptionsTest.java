package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.CommandRun;
import io.cohort.cli.ExitCode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** How {@code cohort cluster}'s options turn into a plan; nothing is started here. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClusterCommandOptionsTest {

    @TempDir
    Path dir;

    private static final Path SHOP = Path.of("target/test-wars/jpetstore.war").toAbsolutePath();

    private static LocalClusterPlan plan(String... args) {
        ClusterCommand command = new ClusterCommand();
        new CommandLine(command).parseArgs(args);
        return command.plan();
    }

    @Test
    void defaultsAreTwoNodesOnTheirOwnHostsFrom8081And9081InCohortWork() {
        LocalClusterPlan plan = plan("--shop-war", SHOP.toString());

        assertThat(plan.hosts()).containsExactly("host1", "host2");
        assertThat(plan.basePort()).isEqualTo(8081);
        assertThat(plan.adminBasePort()).isEqualTo(9081);
        assertThat(plan.dir()).isEqualTo(Path.of("cohort-work").toAbsolutePath());
        assertThat(plan.gracefulStop()).isEqualTo(Duration.ofSeconds(30));
        assertThat(plan.wars()).containsExactly(SHOP);
        assertThat(plan.replication().pattern().name()).isEqualTo("2211");
        assertThat(plan.nodes().get(0).configXml()).contains("<peer bind-addr=\"127.0.0.1\" start-port=\"7800\"")
                .contains("trigger=\"onRequestEnd\" scope=\"modifiedAttributes\"")
                .contains("<security secret-env=\"COHORT_CLUSTER_SECRET\"/>");
    }

    @Test
    void noShopLeavesTheShopOutAndAMissingShopWarIsAUsageError() {
        assertThat(plan("--no-shop").wars()).isEmpty();
        CommandRun missing = CommandRun.of("cluster", "--shop-war", dir.resolve("nowhere.war").toString());
        assertThat(missing.exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(missing.err()).contains("nowhere.war does not exist").contains("--no-shop");
    }

    @Test
    void hostsOptionSharesHostsBetweenNodes() {
        LocalClusterPlan plan = plan("--nodes", "4", "--hosts", "blade1,blade2", "--dir", dir.toString(),
                "--graceful-stop", "5s", "--no-shop");

        assertThat(plan.hosts()).containsExactly("blade1", "blade2", "blade1", "blade2");
        assertThat(plan.dir()).isEqualTo(dir);
        assertThat(plan.gracefulStop()).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void impossibleClustersAreUsageErrors() {
        assertThat(CommandRun.of("cluster", "--no-shop", "--nodes", "0").exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(CommandRun.of("cluster", "--no-shop", "--host-per-node", "--hosts", "a").exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(CommandRun.of("cluster", "--no-shop", "--base-port", "8081", "--admin-base-port", "8082").err())
                .contains("overlap");
        assertThat(CommandRun.of("cluster", "--no-shop", "--war", dir.resolve("missing.war").toString()).err())
                .contains("no such .war file");
        assertThat(CommandRun.of("cluster", "--no-shop", "--start-timeout", "soon").exitCode()).isEqualTo(ExitCode.USAGE);
        assertThat(CommandRun.of("cluster", "--no-shop", "--pattern", "2411").err())
                .contains("invalid replication pattern '2411'").contains("e.g. 2211");
        assertThat(CommandRun.of("cluster", "--no-shop", "--pattern", "3211").err())
                .contains("keeps sessions in the shop's database");
    }
}
