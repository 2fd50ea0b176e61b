package io.cohort.bench.peers;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cli.cluster.EmbeddedH2Server;
import io.cohort.cli.cluster.ReplicationPattern;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopHost;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * HAProxy as the front of two Cohort nodes replicating with 2211: a customer's session sticks to its owner
 * (the route after its id) over 20 requests; after SIGKILL of the owner, the next request is answered by
 * the other node with the customer still signed on and the cart intact.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class CohortBehindHaproxyTest {

    @TempDir
    Path dir;

    @Test
    void sessionSticksToItsOwnerAndSurvivesTheOwnersCrash() throws Exception {
        try (EmbeddedH2Server h2 = EmbeddedH2Server.start(dir.resolve("h2"));
                CohortSystem system = CohortSystem.start(dir.resolve("cluster"), 2, ReplicationPattern.parse("2211"),
                        Path.of("target/test-wars/jpetstore.war").toAbsolutePath(), h2.database(), FrontKind.HAPROXY,
                        0, Duration.ofSeconds(120))) {
            ShopClient customer = new ShopClient(host(system.shop()));
            Page signOn = customer.signOn("j2ee", "j2ee");
            String owner = signOn.header(HaproxyConfig.SERVED_BY_HEADER);
            assertThat(owner).isIn("n1", "n2");
            customer.post("/cart/add", "itemId", "EST-1");
            for (int i = 0; i < 20; i++) {
                Page page = customer.get("/cart");
                assertThat(page.status()).isEqualTo(200);
                assertThat(page.header(HaproxyConfig.SERVED_BY_HEADER)).as("request %d", i).isEqualTo(owner);
            }

            BackendNode ownerNode = system.backends().stream().filter(n -> n.name().equals(owner)).findFirst().orElseThrow();
            ownerNode.kill();
            assertThat(ProcessHandle.of(ownerNode.pid()).map(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join()))
                    .isNotNull();

            Page after = customer.get("/cart");

            assertThat(after.status()).isEqualTo(200);
            assertThat(after.header(HaproxyConfig.SERVED_BY_HEADER)).isNotEqualTo(owner);
            assertThat(after.textOf("cart")).contains("EST-1");
            assertThat(after.body()).contains("Sign off");
        }
    }

    static ShopHost host(URI base) {
        return new ShopHost() {
            @Override
            public URI base() {
                return base;
            }

            @Override
            public void close() {
            }
        };
    }
}
