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
 * Pattern 3211 (database, onRequestEnd, modifiedAttributes, async) with node processes behind the
 * balancer: the sessions live in the shared database, so after a SIGKILL of the owner whichever
 * node the balancer picks loads the session from there, cart intact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DatabaseFailoverThroughBalancerTest {

    @TempDir
    static Path dir;
    private ReplicatingShopCluster shop;

    @BeforeAll
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void startTwoShopNodesKeepingSessionsInTheDatabase() throws Exception {
        shop = ReplicatingShopCluster.start(dir.resolve("cluster"), 2, "3211");
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void sessionOfAKilledOwnerIsLoadedFromTheDatabaseByTheOtherNode() throws Exception {
        ShopClient customer = new ShopClient(shop.shopThroughFirstBalancer());
        customer.signOn("j2ee", "j2ee");
        customer.post("/cart/add", "itemId", "EST-10");
        Page before = customer.get("/cart");
        assertThat(before.header("X-Cohort-Routed")).isEqualTo("n1; reason=sticky");
        // 3211 writes asynchronously: a SIGKILL loses the write in flight (the pattern's contract), so the kill
        // waits until the cart is in the database
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (shop.sessionsInDatabaseWith("cart") == 0) {
            assertThat(System.nanoTime()).as("the cart reached the database within 10 s").isLessThan(deadline);
            Thread.sleep(20);
        }

        NodeProcess owner = shop.node("n1");
        owner.process().destroyForcibly(); // SIGKILL
        assertThat(owner.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        Page after = customer.get("/cart");

        assertThat(after.status()).isEqualTo(200);
        assertThat(after.header("X-Cohort-Routed")).startsWith("n2; reason=");
        assertThat(after.textOf("cart")).contains("EST-10");
        assertThat(after.body()).contains("Sign off");
    }
}
