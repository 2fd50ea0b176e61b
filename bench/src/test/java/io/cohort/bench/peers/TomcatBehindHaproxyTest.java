package io.cohort.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.bench.tomcat.Delivery;
import io.cohort.bench.tomcat.SessionReplication;
import io.cohort.cli.cluster.EmbeddedH2Server;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Tomcat peer as the bench starts it, from this JVM (which has none of Tomcat's classes): two Tomcat
 * nodes with BackupManager behind HAProxy. HAProxy sticks to the jvmRoute after the session id; after
 * SIGKILL of the owner the other node, which holds the backup, serves the customer's cart and re-issues
 * the cookie with its own route. (DeltaManager is covered in bench/tomcat's own test.)
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class TomcatBehindHaproxyTest {

    @TempDir
    Path dir;

    @Test
    void backupManagerSessionSurvivesTheOwnersCrashBehindHaproxy() throws Exception {
        try (EmbeddedH2Server h2 = EmbeddedH2Server.start(dir.resolve("h2"));
                TomcatSystem system = TomcatSystem.start(dir.resolve("tomcat"), 2, SessionReplication.BACKUP,
                        Delivery.ASYNC, Path.of("target/test-wars/jpetstore.war").toAbsolutePath(), h2.database(),
                        List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"), FrontKind.HAPROXY, 0, Duration.ofSeconds(120))) {
            assertThat(system.description()).isEqualTo("tomcat-backup-async x2 behind haproxy");
            ShopClient customer = new ShopClient(CohortBehindHaproxyTest.host(system.shop()));
            Page first = customer.get("/signon");
            String owner = first.header(HaproxyConfig.SERVED_BY_HEADER);
            assertThat(first.header("Set-Cookie")).contains("." + owner + ";");
            customer.post("/signon", "username", "j2ee", "password", "j2ee");
            customer.post("/cart/add", "itemId", "EST-1");
            for (int i = 0; i < 5; i++) {
                assertThat(customer.get("/cart").header(HaproxyConfig.SERVED_BY_HEADER)).isEqualTo(owner);
            }

            BackendNode ownerNode = system.backends().stream().filter(n -> n.name().equals(owner)).findFirst().orElseThrow();
            ownerNode.kill();
            ProcessHandle.of(ownerNode.pid()).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());

            Page after = customer.get("/cart");

            assertThat(after.status()).isEqualTo(200);
            String other = after.header(HaproxyConfig.SERVED_BY_HEADER);
            assertThat(other).isNotEqualTo(owner);
            assertThat(after.textOf("cart")).contains("EST-1");
            assertThat(after.body()).contains("Sign off");
            assertThat(after.header("Set-Cookie")).contains("." + other + ";");
        }
    }
}
