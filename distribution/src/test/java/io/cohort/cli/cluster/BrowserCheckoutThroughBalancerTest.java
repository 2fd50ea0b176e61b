package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.web.AbstractBrowserCheckoutTest;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;

/**
 * The customer's whole visit in Chromium through the balancer of a 3-node local cluster replicating
 * with pattern 2211; between filling the cart and checking out, the node that owns the session is
 * killed with SIGKILL. The checkout completes and the order is in the history: the customer never
 * notices.
 */
class BrowserCheckoutThroughBalancerTest extends AbstractBrowserCheckoutTest {

    private ReplicatingShopCluster shop;
    private String killed;

    BrowserCheckoutThroughBalancerTest() {
        super(Path.of("target/screenshots/through-balancer"));
    }

    @Override
    protected ShopHost startShop() throws Exception {
        shop = ReplicatingShopCluster.start(Files.createTempDirectory("cohort-browser-cluster"), 3, "2211");
        URI base = shop.shopThroughFirstBalancer().base();
        return new ShopHost() {
            @Override
            public URI base() {
                return base;
            }

            @Override
            public void close() throws Exception {
                shop.close();
                assertThat(killed).as("the owner was killed during the visit").isNotNull();
            }
        };
    }

    @Override
    protected void betweenCartAndCheckout(WebDriver browser) throws Exception {
        Cookie session = browser.manage().getCookieNamed("JSESSIONID");
        String owner = session.getValue().substring(session.getValue().lastIndexOf('.') + 1);
        NodeProcess process = shop.node(owner);
        process.process().destroyForcibly(); // SIGKILL
        assertThat(process.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
        killed = owner;
    }
}
