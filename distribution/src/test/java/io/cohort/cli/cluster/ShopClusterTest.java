package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopHost;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code cohort cluster} sets up by default: every node serves the shop, and all nodes share
 * the embedded H2 database of the cluster process — an order placed at one node is in the order
 * history at the other.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShopClusterTest {

    @TempDir
    static Path dir;
    private EmbeddedH2Server database;
    private LocalCluster cluster;
    private ClusterState state;

    @BeforeAll
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void startClusterWithTheShop() throws Exception {
        database = EmbeddedH2Server.start(dir.resolve("cluster/h2"));
        LocalClusterPlan plan = new LocalClusterPlan(dir.resolve("cluster"), LocalClusterPlan.hostPerNode(2), 0, 0,
                List.of(Path.of("target/test-wars/jpetstore.war").toAbsolutePath()), Duration.ofSeconds(10))
                .withDatabase(database.database());
        cluster = new LocalCluster(plan, JavaCommand.current());
        state = cluster.start(Duration.ofSeconds(120));
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.stop();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void everyNodeServesTheShop() {
        for (ClusterState.Node node : state.nodes()) {
            Page home = new ShopClient(shopAt(node)).get("/");
            assertThat(home.status()).as(node.name()).isEqualTo(200);
            assertThat(home.body()).contains("JPetStore").contains("category?id=FISH");
        }
    }

    @Test
    void anOrderPlacedAtOneNodeIsInTheHistoryAtTheOther() {
        ShopClient atFirst = new ShopClient(shopAt(state.nodes().get(0)));
        atFirst.signOn("j2ee", "j2ee");
        atFirst.post("/cart/add", "itemId", "EST-6");
        atFirst.get("/checkout");
        atFirst.post("/checkout", "cardType", "Visa", "cardNumber", "4111 1111 1111 1111",
                "expiry", YearMonth.now().plusYears(1).format(DateTimeFormatter.ofPattern("MM/yyyy")),
                "bill.firstName", "Test", "bill.lastName", "Tester", "bill.address1", "1 Test Road",
                "bill.address2", "", "bill.city", "Testville", "bill.state", "CA", "bill.zip", "94000",
                "bill.country", "USA");
        Page order = atFirst.post("/checkout/confirm");
        Matcher id = Pattern.compile("data-order-id=\"(\\d+)\"").matcher(order.body());
        assertThat(id.find()).as(order.toString()).isTrue();

        ShopClient atSecond = new ShopClient(shopAt(state.nodes().get(1)));
        atSecond.signOn("j2ee", "j2ee");
        assertThat(atSecond.get("/orders").textOf("orders")).contains("#" + id.group(1));
    }

    private static ShopHost shopAt(ClusterState.Node node) {
        return new ShopHost() {
            @Override
            public URI base() {
                return URI.create(node.http() + CONTEXT_PATH);
            }

            @Override
            public void close() {
            }
        };
    }
}
