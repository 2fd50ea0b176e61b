package io.cohort.bench.tomcat;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.h2.tools.Server;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The Tomcat peer baseline does what the study compares Cohort against: two Tomcat node JVMs clustered
 * with DeltaManager (BackupManager behind HAProxy is bench's {@code TomcatBehindHaproxyTest}), a signed-on customer with a cart on node n1 (its session cookie
 * carries the route {@code .n1}), SIGKILL of n1; the next request with the same cookie at n2 finds the
 * customer still signed on with the cart intact, and n2 re-issues the cookie with its own route.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TomcatClusterFailoverTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = SessionReplication.class, names = "DELTA")
    void sessionOfAKilledOwnerIsServedWithItsCartByTheOtherNode(SessionReplication manager) throws Exception {
        Server h2 = Server.createTcpServer("-tcpPort", "0", "-baseDir", dir.resolve("h2").toString(), "-ifNotExists")
                .start();
        TomcatClusterPlan plan = new TomcatClusterPlan(dir.resolve("cluster"), manager, Delivery.ASYNC,
                List.of(PresetPorts.one(), PresetPorts.one()), List.of(PresetPorts.one(), PresetPorts.one()),
                Path.of("target/test-wars/jpetstore.war").toAbsolutePath(),
                "jdbc:h2:tcp://127.0.0.1:" + h2.getPort() + "/./jpetstore", "sa", Optional.empty(),
                List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"));
        try (TomcatCluster cluster = TomcatCluster.start(plan, TomcatCluster.nodeClassPath(), Duration.ofSeconds(90))) {
            SwitchableHost host = new SwitchableHost(cluster.nodes().get(0).shop());
            ShopClient customer = new ShopClient(host);
            Page first = customer.get("/signon");
            assertThat(first.header("Set-Cookie")).startsWith("JSESSIONID=").contains(".n1;");
            customer.post("/signon", "username", "j2ee", "password", "j2ee");
            customer.post("/cart/add", "itemId", "EST-1");
            customer.post("/cart/add", "itemId", "EST-2");
            assertThat(customer.get("/cart").textOf("cart")).contains("EST-1", "EST-2");

            Process owner = cluster.nodes().get(0).process();
            owner.destroyForcibly(); // SIGKILL: no goodbye, no hand-over
            assertThat(owner.waitFor(30, TimeUnit.SECONDS)).isTrue();
            host.base = cluster.nodes().get(1).shop();

            Page after = customer.get("/cart");

            assertThat(after.status()).isEqualTo(200);
            assertThat(after.textOf("cart")).contains("EST-1", "EST-2");
            assertThat(after.body()).contains("Sign off");
            assertThat(after.header("Set-Cookie")).as("the session moves to n2's route").contains(".n2;");
        } finally {
            h2.stop();
        }
    }

    /** The node the customer's requests go to, as a balancer would choose it. */
    private static final class SwitchableHost implements ShopHost {
        volatile URI base;

        SwitchableHost(URI base) {
            this.base = base;
        }

        @Override
        public URI base() {
            return base;
        }

        @Override
        public void close() {
        }
    }
}
