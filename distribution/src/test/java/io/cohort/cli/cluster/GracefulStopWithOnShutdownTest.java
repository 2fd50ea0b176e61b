package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pattern 2311 (peer, onShutdown): nothing is replicated while the owner runs, but a graceful stop
 * (SIGTERM) hands every session over, so the customer carries on at the other node.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GracefulStopWithOnShutdownTest {

    @TempDir
    static Path dir;
    private ReplicatingShopCluster shop;

    @BeforeAll
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void startTwoShopNodesReplicatingOnShutdown() throws Exception {
        shop = ReplicatingShopCluster.start(dir.resolve("cluster"), 2, "2311");
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void sessionsOfANodeStoppedWithSigtermSurviveAtTheOtherNode() throws Exception {
        ShopClient customer = new ShopClient(shop.shopThroughFirstBalancer());
        customer.signOn("j2ee", "j2ee");
        customer.post("/cart/add", "itemId", "EST-4");
        Page before = customer.get("/cart");
        assertThat(before.header("X-Cohort-Routed")).isEqualTo("n1; reason=sticky");

        NodeProcess owner = shop.node("n1");
        owner.process().destroy(); // SIGTERM: graceful stop hands the sessions over
        assertThat(owner.process().waitFor(60, TimeUnit.SECONDS)).isTrue();

        Page after = customer.get("/cart");

        assertThat(after.status()).isEqualTo(200);
        assertThat(after.header("X-Cohort-Routed")).startsWith("n2; reason=");
        assertThat(after.textOf("cart")).contains("EST-4");
        assertThat(after.body()).contains("Sign off");
    }
}
