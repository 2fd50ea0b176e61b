package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.H2Database;
import io.cohort.jpetstore.testing.SessionAttributeRecorder;
import io.cohort.jpetstore.testing.SessionProbeServlet;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Year;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Runs the benchmark scenario (sign on, search with paging, view an item, add it to the cart, three times over,
 * then check out and sign off) on the benchmark data set, serializing every session attribute whenever it is set,
 * as a "modified attributes" replicator would. Prints the sizes and writes them to target/session-sizes.txt.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionAttributeSizesTest {
    private static final int SMALL = 2 * 1024;
    private static final int SEARCH_RESULTS_LIMIT = 16 * 1024;

    private final SessionAttributeRecorder recorder = new SessionAttributeRecorder();
    private H2Database database;
    private ShopServer server;

    @BeforeAll
    void startShopOnTheBenchmarkDataSet() throws Exception {
        database = H2Database.open();
        server = ShopServer.start(database.dataSource(), Map.of("jpetstore.dataset", "benchmark",
                "jpetstore.benchmark.accounts", "20", "jpetstore.benchmark.products", "2000"), app -> {
                    app.addEventListener(recorder);
                    app.addServlet(new ServletHolder(new SessionProbeServlet(recorder)), "/__session-probe");
                });
    }

    @AfterAll
    void stop() throws Exception {
        server.close();
        database.close();
    }

    @Test
    void sessionAttributesStaySmallAndEveryChangeIsSetAgain() throws Exception {
        ShopClient visitor = new ShopClient(server);
        assertThat(visitor.signOn("user3", "password").body()).contains("You are signed on.");
        List<String> keywords = visitor.get("/keywords.txt").body().lines().toList();
        Random random = new Random(7);
        int searchHits = 0;
        for (int round = 0; round < 3; round++) {
            Page results = visitor.get("/search?keywords=" + keywords.get(random.nextInt(keywords.size())));
            List<String> products = results.all("href=\"/jpetstore/product\\?id=(BP-\\d+)\"");
            searchHits = Math.max(searchHits, Integer.parseInt(results.textOf("result-summary").split(" ")[0]));
            visitor.get("/search?page=2");
            Page product = visitor.get("/product?id=" + products.get(random.nextInt(products.size())));
            String item = product.all("href=\"/jpetstore/item\\?id=(BI-\\d+)\"").get(0);
            visitor.get("/item?id=" + item);
            visitor.post("/cart/add", "itemId", item);
        }
        visitor.get("/checkout");
        visitor.post("/checkout", "cardType", "Visa", "cardNumber", "4111111111111111", "expiry", "12/"
                        + (Year.now().getValue() + 2), "bill.firstName", "Bench", "bill.lastName", "User3",
                "bill.address1", "3 Benchmark Way", "bill.city", "Redwood Shores", "bill.state", "CA", "bill.zip",
                "94065", "bill.country", "USA", "shipElsewhere", "on");
        Page confirm = visitor.post("/checkout/shipping", "ship.firstName", "Gift", "ship.lastName", "Friend",
                "ship.address1", "1 Other Street", "ship.city", "Oakland", "ship.state", "CA", "ship.zip", "94601",
                "ship.country", "USA");
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");

        Map<String, String[]> probe = visitor.get("/__session-probe").body().lines()
                .map(l -> l.split(" ")).collect(Collectors.toMap(f -> f[0], f -> f, (a, b) -> a, LinkedHashMap::new));
        assertThat(visitor.postRaw("/checkout/confirm", confirm.hiddenFields("/checkout/confirm")).path()).isEqualTo("/orders/view");
        visitor.post("/signoff");

        Map<String, Integer> largest = recorder.largestSizes();
        String report = report(largest, recorder.setCounts(), searchHits);
        System.out.println(report);
        Files.writeString(Path.of("target/session-sizes.txt"), report, StandardCharsets.UTF_8);

        assertThat(probe.keySet()).containsExactlyInAnyOrder(
                "account", "searchResults", "viewedItem", "cart", "checkout", "csrfToken");
        assertThat(probe.values()).allSatisfy(f -> assertThat(f[2]).as(f[0]).isEqualTo("same"));
        largest.forEach((name, size) -> {
            int limit = name.equals("searchResults") ? SEARCH_RESULTS_LIMIT : SMALL;
            assertThat(size).as(name + " serialized size").isLessThan(limit);
        });
    }

    private static String report(Map<String, Integer> largest, Map<String, Integer> sets, int searchHits) {
        StringBuilder out = new StringBuilder("Largest serialized size of each session attribute (Java serialization)"
                + " during the benchmark scenario; the largest search found " + searchHits + " products:\n");
        largest.forEach((name, size) -> out.append(String.format("  %-14s %6d bytes  (set %d times)%n", name, size,
                sets.get(name))));
        out.append(String.format("  %-14s %6d bytes%n", "total", largest.values().stream().mapToInt(i -> i).sum()));
        return out.toString();
    }
}
