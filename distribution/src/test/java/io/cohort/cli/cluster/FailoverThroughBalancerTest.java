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
 * The promise of Cohort, end to end with separate processes: three shop nodes replicating with
 * pattern 2211 (peer, onRequestEnd, modifiedAttributes, async, write-quota 1) behind the
 * balancer of host1 ({@code roundrobin:local}); a signed-on customer with a cart; SIGKILL of the
 * node that owns the session. The next request through the balancer is answered by the member
 * that holds the copy, with the customer still signed on and the cart intact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailoverThroughBalancerTest {

    @TempDir
    static Path dir;
    private ReplicatingShopCluster shop;

    @BeforeAll
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void startThreeReplicatingShopNodesBehindBalancers() throws Exception {
        shop = ReplicatingShopCluster.start(dir.resolve("cluster"), 3, "2211");
    }

    @AfterAll
    void stopEverything() throws Exception {
        if (shop != null) {
            shop.close();
        }
    }

    @Test
    void sessionOfAKilledOwnerIsServedWithItsCartByTheMemberHoldingTheCopy() throws Exception {
        ShopClient customer = new ShopClient(shop.shopThroughFirstBalancer());
        customer.signOn("j2ee", "j2ee");
        customer.post("/cart/add", "itemId", "EST-1");
        customer.post("/cart/add", "itemId", "EST-2");
        Page before = customer.get("/cart");
        assertThat(before.header("X-Cohort-Routed")).isEqualTo("n1; reason=sticky");
        assertThat(before.textOf("cart")).contains("EST-1", "EST-2");

        NodeProcess owner = shop.node("n1");
        owner.process().destroyForcibly(); // SIGKILL: no goodbye, no hand-over
        assertThat(owner.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

        Page after = customer.get("/cart");

        assertThat(after.status()).isEqualTo(200);
        assertThat(after.header("X-Cohort-Routed")).matches("n[23]; reason=backup");
        assertThat(after.textOf("cart")).contains("EST-1", "EST-2");
        assertThat(after.body()).contains("Sign off");
        Page next = customer.get("/cart");
        assertThat(next.header("X-Cohort-Routed")).isEqualTo(after.header("X-Cohort-Routed").replace("backup", "sticky"));
    }
}
