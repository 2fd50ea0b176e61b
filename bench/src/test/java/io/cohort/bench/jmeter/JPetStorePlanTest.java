package io.cohort.bench.jmeter;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.bench.jmeter.BenchmarkShopCluster.ShopData;
import io.cohort.bench.jmeter.JtlResults.Sample;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench/jmeter/jpetstore.jmx} run by a real JMeter 5.6.3 (its own JVM, non-GUI) for a few
 * seconds against two shop nodes replicating with pattern 2211 behind one balancer: JMeter exits
 * with 0, every page of the scenario was requested, orders were placed, and no sample failed (each
 * response is checked by the plan's assertions: signed on, results found, the cart holding every
 * piece added in the loop, the order confirmed, signed off).
 */
class JPetStorePlanTest {

    private static final Path PLAN = Path.of(System.getProperty("cohort.jmeter.plan", "jmeter/jpetstore.jmx"));
    private static final Path SHOP_WAR = Path.of(System.getProperty("cohort.shop.war", "target/test-wars/jpetstore.war"));
    /** 1,000 products: 20 keywords of about 100 products each, as in the full data set. */
    private static final ShopData DATA = new ShopData(40, 1_000);
    private static final int KEYWORDS = 20;
    private static final int USERS = 4;
    private static final Duration RUN = Duration.ofSeconds(15);
    /** The sampler labels of the plan: the scenario's pages. */
    private static final Set<String> PAGES = Set.of("keywords", "sign-on form", "sign on", "search", "product", "item",
            "add to cart", "checkout form", "payment", "place order", "sign off");

    /** Kept after the run for a look at the results, JMeter's log and the nodes' logs; emptied before. */
    private final Path dir = Path.of(System.getProperty("cohort.jmeter.work", "target/jpetstore-plan-test"));

    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void planRunsTheWholeScenarioThroughTheBalancerWithoutAFailedPage() throws Exception {
        JMeter jmeter = JMeter.fromBuild();
        deleteRecursively(dir);
        try (BenchmarkShopCluster shop = BenchmarkShopCluster.start(dir.resolve("cluster"), SHOP_WAR.toAbsolutePath(), 2,
                "2211", DATA)) {
            long started = System.nanoTime();
            warmUpInParallel(shop.shopOnEachNode());
            assertThat(awaitKeywords(shop.shopThroughBalancer())).hasSize(KEYWORDS);
            System.out.printf("shop ready and warm in %d ms%n", (System.nanoTime() - started) / 1_000_000);

            JMeter.Run run = jmeter.runNonGui(PLAN, dir.resolve("jmeter"), Map.of(
                    "host", "127.0.0.1",
                    "port", Integer.toString(shop.balancerPort()),
                    "users", Integer.toString(USERS),
                    "rampup", "1",
                    "duration", Long.toString(RUN.toSeconds()),
                    "accounts", Integer.toString(DATA.accounts())), RUN.plusSeconds(60));

            System.out.printf("JMeter finished: %s%n", run.outcome());
            assertThat(run.succeeded()).as(run.describe()).isTrue();
            JtlResults results = JtlResults.read(run.jtl());
            List<Sample> failures = results.failures();
            assertThat(failures).as("failed samples of %s\n%s", run.jtl(), run.describe()).isEmpty();
            Map<String, Long> pages = results.countByLabel(PAGES);
            assertThat(pages.keySet()).as("pages requested: %s", pages).isEqualTo(PAGES);
            assertThat(pages.get("place order")).as("orders placed: %s", pages).isPositive();
            assertThat(pages.get("add to cart")).as("at least one add per order: %s", pages)
                    .isGreaterThanOrEqualTo(pages.get("place order"));
            assertThat(pages.get("keywords")).as("keywords once per user: %s", pages).isEqualTo(USERS);
        }
    }

    /** Every node goes once through every page, all nodes at once. */
    private static void warmUpInParallel(List<URI> nodes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(nodes.size());
        try {
            List<Future<Void>> visits = new ArrayList<>();
            for (URI node : nodes) {
                visits.add(pool.submit(() -> {
                    List<String> keywords = awaitKeywords(node);
                    assertThat(keywords).as("keywords of %s", node).hasSize(KEYWORDS);
                    ShopWarmUp.visitEveryPage(node, keywords.get(0), "user0");
                    return null;
                }));
            }
            for (Future<Void> visit : visits) {
                try {
                    visit.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The shop's search keywords, once the shop answers (it loads its data set on first use). */
    private static List<String> awaitKeywords(URI shop) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(shop + "/keywords.txt")).timeout(Duration.ofSeconds(60)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 200) {
                return response.body().lines().filter(line -> !line.isBlank()).toList();
            }
            last = "HTTP " + response.statusCode();
            Thread.sleep(200);
        }
        throw new IOException(shop + "/keywords.txt did not answer 200 within 60 s: " + last);
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        }
    }
}
