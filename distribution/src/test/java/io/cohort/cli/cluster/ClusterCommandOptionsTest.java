package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

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

    /** The command's error for these options, made by {@code plan()}, the step before anything starts. */
    private static String usageError(java.util.Map<String, String> environment, String... args) {
        ClusterCommand command = new ClusterCommand();
        command.environment = environment::get;
        new CommandLine(command).parseArgs(args);
        return assertThatExceptionOfType(CommandLine.ParameterException.class).isThrownBy(command::plan).actual().getMessage();
    }

    private static String usageError(String... args) {
        return usageError(java.util.Map.of(), args);
    }

    @Test
    void portRangesBeyond65535AreUsageErrors() {
        assertThat(usageError("--no-shop", "--nodes", "3", "--replication-base-port", "65534"))
                .isEqualTo("--replication-base-port 65534 does not leave room for 3 ports (one per node); use 1 to 65533, "
                        + "or 0 for free ports");
        assertThat(usageError("--no-shop", "--nodes", "2", "--balancer-base-port", "65535"))
                .isEqualTo("--balancer-base-port 65535 does not leave room for 2 ports (one per host); use 1 to 65534, "
                        + "or 0 for free ports");
        assertThat(usageError("--no-shop", "--nodes", "2", "--balancer-admin-base-port", "70000"))
                .startsWith("--balancer-admin-base-port 70000 does not leave room for 2 ports");
        assertThat(usageError("--no-shop", "--nodes", "2", "--replication-base-port", "-1"))
                .startsWith("--replication-base-port -1 does not leave room");
        // ports that are not used are not checked: no balancer, no replication, or one multicast group port
        assertThat(plan("--no-shop", "--no-balancer", "--balancer-base-port", "65535").size()).isEqualTo(2);
        assertThat(plan("--no-shop", "--pattern", "none", "--replication-base-port", "65535").size()).isEqualTo(2);
        assertThat(plan("--no-shop", "--pattern", "1211", "--replication-base-port", "65535").size()).isEqualTo(2);
    }

    @Test
    void portRangesThatOverlapEachOtherAreUsageErrors() {
        assertThat(usageError("--no-shop", "--nodes", "3", "--replication-base-port", "8082"))
                .isEqualTo("--replication-base-port 8082 (ports 8082-8084) overlaps --base-port 8081 (ports 8081-8083); "
                        + "choose ranges that do not overlap, or 0 for free ports");
        assertThat(usageError("--no-shop", "--balancer-base-port", "9082"))
                .startsWith("--balancer-base-port 9082 (ports 9082-9083) overlaps --admin-base-port 9081 (ports 9081-9082)");
        assertThat(usageError("--no-shop", "--balancer-admin-base-port", "8000"))
                .startsWith("--balancer-admin-base-port 8000 (ports 8000-8001) overlaps --balancer-base-port 8000");
        assertThat(usageError("--no-shop", "--hosts", "a", "--balancer-base-port", "7800", "--balancer-admin-base-port", "9000"))
                .startsWith("--balancer-base-port 7800 (port 7800) overlaps --replication-base-port 7800 (ports 7800-7801)");
        // a base of 0 takes free ports, which overlap nothing
        assertThat(plan("--no-shop", "--base-port", "0", "--admin-base-port", "0", "--replication-base-port", "0",
                "--balancer-base-port", "0", "--balancer-admin-base-port", "0").basePort()).isZero();
    }

    @Test
    void failureDetectionPortsAboveTheReplicationPortsMayNotOverlapTheNodesPortsUnlessPeersTalkOverTls() {
        // without TLS, FD_SOCK2 listens 100 above each replication port (8081-8085 here): node n1's HTTP port is 8081
        assertThat(usageError("--no-shop", "--nodes", "2", "--replication-base-port", "7981", "--pattern", "2211s4"))
                .contains("failure detection").contains("overlaps");
        // over TLS (the default, and s3) the stack has no FD_SOCK2, so those ports are not the cluster's
        assertThat(plan("--no-shop", "--nodes", "2", "--replication-base-port", "7981").basePort()).isEqualTo(8081);
        assertThat(plan("--no-shop", "--nodes", "2", "--replication-base-port", "7981", "--pattern", "2211s3")
                .basePort()).isEqualTo(8081);
    }

    @Test
    void shopOptionsBesideNoShopAreUsageErrorsInsteadOfBeingIgnored() {
        assertThat(usageError("--no-shop", "--database", "jdbc:postgresql://127.0.0.1/shop"))
                .contains("--database is about the shop, which --no-shop leaves out");
        assertThat(usageError("--no-shop", "--shop-war", SHOP.toString())).contains("--shop-war");
        assertThat(usageError("--no-shop", "--database-password-env", "SHOP_PW")).contains("--database-password-env");
    }

    @Test
    void aDatabaseUrlThatIsNoJdbcUrlIsAUsageError() {
        assertThat(usageError("--shop-war", SHOP.toString(), "--database", "postgresql://127.0.0.1/shop"))
                .isEqualTo("--database postgresql://127.0.0.1/shop: expected a JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/shop");
    }

    @Test
    void anEmptyOrUnsetDatabasePasswordVariableIsAUsageError() {
        assertThat(usageError(java.util.Map.of("SHOP_PW", ""), "--shop-war", SHOP.toString(), "--database",
                "jdbc:postgresql://127.0.0.1/shop", "--database-password-env", "SHOP_PW"))
                .isEqualTo("--database-password-env SHOP_PW is empty");
        assertThat(usageError(java.util.Map.of(), "--shop-war", SHOP.toString(), "--database",
                "jdbc:postgresql://127.0.0.1/shop", "--database-password-env", "SHOP_PW"))
                .isEqualTo("--database-password-env SHOP_PW is not set");
    }

    @Test
    void twoWarsOfOneFileNameAreAUsageErrorBecauseTheLaterWouldReplaceTheEarlier() throws Exception {
        Path a = java.nio.file.Files.createDirectories(dir.resolve("a")).resolve("app.war");
        Path b = java.nio.file.Files.createDirectories(dir.resolve("b")).resolve("app.war");
        java.nio.file.Files.write(a, new byte[] {1});
        java.nio.file.Files.write(b, new byte[] {2});
        assertThat(usageError("--no-shop", "--war", a.toString(), "--war", b.toString()))
                .isEqualTo("--war " + b + ": a WAR named app.war is already deployed from " + a
                        + "; each application needs a file name of its own");
        Path shopLike = dir.resolve("a").resolve("jpetstore.war");
        java.nio.file.Files.write(shopLike, new byte[] {3});
        assertThat(usageError("--shop-war", SHOP.toString(), "--war", shopLike.toString()))
                .isEqualTo("--war " + shopLike + ": a WAR named jpetstore.war is already deployed from " + SHOP
                        + " (the shop); each application needs a file name of its own");
        // the same file twice is one application
        assertThat(plan("--no-shop", "--war", a.toString(), "--war", a.toString()).wars()).containsExactly(a);
    }

    @Test
    void aStartTimeoutOfZeroIsAUsageError() {
        // parsed only: were it accepted, nothing is started here
        assertThatExceptionOfType(CommandLine.ParameterException.class)
                .isThrownBy(() -> new CommandLine(new ClusterCommand()).parseArgs("--no-shop", "--start-timeout", "0s"))
                .withMessageContaining("--start-timeout").withMessageContaining("above zero");
    }
}
