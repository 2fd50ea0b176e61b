package io.cohort.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.cluster.EmbeddedH2Server;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plain-Jetty JDBC session baseline behind Cohort's balancer: two nodes on the embedded H2 database,
 * a signed-on customer with a cart on its owner (the route after the session id), SIGKILL of the owner;
 * the next request is served by the other node, which loads the session from the database.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class JettyJdbcFailoverTest {

    @TempDir
    Path dir;

    @Test
    void sessionOfAKilledNodeIsLoadedFromTheDatabaseByTheOtherNode() throws Exception {
        try (EmbeddedH2Server h2 = EmbeddedH2Server.start(dir.resolve("h2"));
                JettyJdbcSystem system = JettyJdbcSystem.start(dir.resolve("jetty"), 2,
                        Path.of("target/test-wars/jpetstore.war").toAbsolutePath(), h2.database(),
                        FrontKind.COHORT_BALANCER, 0, Duration.ofSeconds(120))) {
            ShopClient customer = new ShopClient(CohortBehindHaproxyTest.host(system.shop()));
            Page first = customer.get("/signon");
            assertThat(first.header("Set-Cookie")).matches("JSESSIONID=[^;]+\\.n[12];.*");
            String owner = first.header("Set-Cookie").replaceAll("JSESSIONID=[^;]+\\.(n[12]);.*", "$1");
            customer.post("/signon", "username", "j2ee", "password", "j2ee");
            customer.post("/cart/add", "itemId", "EST-1");
            Page before = customer.get("/cart");
            assertThat(before.header("X-Cohort-Routed")).isEqualTo(owner + "; reason=sticky");
            assertThat(before.textOf("cart")).contains("EST-1");

            BackendNode ownerNode = system.backends().stream().filter(n -> n.name().equals(owner)).findFirst().orElseThrow();
            ownerNode.kill();
            ProcessHandle.of(ownerNode.pid()).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());

            Page after = customer.get("/cart");

            assertThat(after.status()).isEqualTo(200);
            assertThat(after.header("X-Cohort-Routed")).doesNotStartWith(owner);
            assertThat(after.textOf("cart")).contains("EST-1");
            assertThat(after.body()).contains("Sign off");
        }
    }
}
