package io.cohort.jpetstore.web;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.testing.ShopServer;
import java.net.URI;
import java.nio.file.Path;

/** The customer's visit in Chromium on the shop in an embedded Jetty, on H2. */
class BrowserCheckoutTest extends AbstractBrowserCheckoutTest {

    BrowserCheckoutTest() {
        super(Path.of("target/screenshots"));
    }

    @Override
    protected ShopHost startShop() throws Exception {
        H2Database database = H2Database.open();
        ShopServer server = ShopServer.start(database.dataSource());
        return new ShopHost() {
            @Override
            public URI base() {
                return server.base();
            }

            @Override
            public void close() throws Exception {
                server.close();
                database.close();
            }
        };
    }
}
