package io.cohort.bench.study.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The scenario and the browser against a scripted stand-in for the shop (the JDK's HTTP server): what the driver
 * makes of a page the real shop only serves when something went wrong.
 */
class ShopScenarioOnFakeShopTest {

    private static final String ORDER_TOKEN = "one-time-token";
    private static final String SIGNED_ON = "<a id=\"sign-off\" href=\"/shop/signoff\">Sign off</a>"
            + "<meta name=\"csrf-token\" content=\"t0k3n\">";

    private final HttpClient http = new HttpClient();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final LoadStats stats = new LoadStats(System.nanoTime(), TimeUnit.MINUTES.toNanos(5));
    private HttpServer shop;
    private volatile boolean draftLost;
    /** The page after the sign-on's redirect shows the user signed off: the session it signed on was gone there. */
    private volatile boolean lostAfterSignOn;
    /** "Place order" finds another cart in the session than the confirmation showed: the confirmation comes back. */
    private volatile boolean staleAtPlaceOrder;
    /** "Place order" finds the item sold out: the confirmation comes back with the shop's reason. */
    private volatile boolean soldOutAtPlaceOrder;
    private final AtomicInteger added = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        http.start();
        shop = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        shop.createContext("/shop/", this::serve);
        shop.setExecutor(Executors.newFixedThreadPool(4));
        shop.start();
    }

    @AfterEach
    void stop() throws Exception {
        http.stop();
        shop.stop(0);
        timer.shutdownNow();
    }

    @Test
    void aPaymentThatLandsBackOnTheCheckoutLostItsDraftAndSoTheSession() {
        draftLost = true;

        assertThatThrownBy(() -> scenario(Duration.ofSeconds(5)).run().join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(ScenarioAbort.class, abort -> {
                    assertThat(abort.outcome()).isEqualTo(ScenarioOutcome.SESSION_LOST);
                    assertThat(abort).hasMessageContaining("the checkout draft was gone");
                });
    }

    @Test
    void aSignOnWhoseNextPageShowsTheUserSignedOffLostTheSession() {
        lostAfterSignOn = true;

        assertSessionLost("signed off right after signing on");
    }

    @Test
    void aConfirmationThatComesBackAtPlaceOrderFoundAStaleSession() {
        staleAtPlaceOrder = true;

        assertSessionLost("the confirmation came back");
    }

    @Test
    void aConfirmationThatComesBackForAnotherReasonIsAnError() {
        soldOutAtPlaceOrder = true;

        assertThatThrownBy(() -> scenario(Duration.ofSeconds(5)).run().join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(ScenarioAbort.class,
                        abort -> assertThat(abort.outcome()).isEqualTo(ScenarioOutcome.ERROR));
    }

    private void assertSessionLost(String why) {
        assertThatThrownBy(() -> scenario(Duration.ofSeconds(5)).run().join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(ScenarioAbort.class, abort -> {
                    assertThat(abort.outcome()).isEqualTo(ScenarioOutcome.SESSION_LOST);
                    assertThat(abort).hasMessageContaining(why);
                });
    }

    /** Also: "Place order" posts the confirmation's hidden order token, else the fake shop does not place it. */
    @Test
    void theWholeScenarioPassesWhenTheShopKeepsTheSession() {
        draftLost = false;

        scenario(Duration.ofSeconds(5)).run().join();
    }

    @Test
    void thePageTimeoutCoversThePageWithItsRedirectsNotEachRequest() {
        ShopBrowser browser = browser(Duration.ofMillis(700));

        // /slow-redirect answers after 400 ms with a redirect to /slow, which answers after 400 ms: each request is
        // within the timeout, the page is not
        assertThatThrownBy(() -> browser.get("/slow-redirect").get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("TimeoutException");
        assertThat(stats.windowHistogram().getTotalCount()).as("recorded as a timed-out page").isEqualTo(1);
    }

    private ShopScenario scenario(Duration pageTimeout) {
        ShopBrowser browser = browser(pageTimeout);
        DriverContext context = context(pageTimeout);
        return new ShopScenario(browser, new Random(3), context);
    }

    private ShopBrowser browser(Duration pageTimeout) {
        return new ShopBrowser(context(pageTimeout), URI.create("http://127.0.0.1:" + shop.getAddress().getPort() + "/shop"),
                new Random(3));
    }

    private DriverContext context(Duration pageTimeout) {
        URI address = URI.create("http://127.0.0.1:" + shop.getAddress().getPort() + "/shop");
        DriverSettings settings = new DriverSettings(List.of(address), 1, Duration.ofMillis(1), Duration.ZERO, 10,
                pageTimeout, 3);
        return new DriverContext(settings, http, timer, stats, new ShopVocabulary(List.of("fish")));
    }

    /** Just enough of the shop's pages for one scenario with one round. */
    private void serve(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().substring("/shop".length());
        String method = exchange.getRequestMethod();
        String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        switch (method + " " + path) {
            case "GET /signon" -> page(exchange, "<a id=\"sign-on\">Sign on</a><meta name=\"csrf-token\" content=\"t0k3n\">");
            case "POST /signon" -> {
                added.set(0);
                redirect(exchange, "/shop/catalog");
            }
            case "GET /catalog" -> page(exchange, lostAfterSignOn ? "<a id=\"sign-on\">Sign on</a>" : SIGNED_ON);
            case "GET /checkout", "GET /orders/view" -> page(exchange, SIGNED_ON + orderIfPlaced(path));
            case "GET /search" -> page(exchange, SIGNED_ON + "<a href=\"/shop/product?id=FI-SW-01\">Angelfish</a>");
            case "GET /product" -> page(exchange, SIGNED_ON + "<a href=\"/shop/item?id=EST-1\">EST-1</a>");
            case "GET /item" -> page(exchange, SIGNED_ON + "<span id=\"price\">$16.50</span>");
            case "POST /cart/add" -> {
                added.incrementAndGet();
                redirect(exchange, "/shop/cart");
            }
            case "GET /cart" -> page(exchange, SIGNED_ON + "<input name=\"quantity-EST-1\" value=\"" + added + "\">");
            case "POST /checkout" -> redirect(exchange, "/shop/checkout/confirm");
            case "GET /checkout/confirm" -> {
                if (draftLost) {
                    redirect(exchange, "/shop/checkout");
                } else {
                    page(exchange, SIGNED_ON + order() + "<form method=\"post\" action=\"/shop/checkout/confirm\">"
                            + "<input type=\"hidden\" name=\"orderToken\" value=\"" + ORDER_TOKEN + "\"></form>");
                }
            }
            case "POST /checkout/confirm" -> {
                if (soldOutAtPlaceOrder) {
                    page(exchange, SIGNED_ON + "<p class=\"alert\">Sorry, only 0 of Angelfish (EST-1) are left. Please "
                            + "lower the quantity in your cart.</p>" + order());
                } else if (form.contains("orderToken=" + ORDER_TOKEN) && !staleAtPlaceOrder) {
                    redirect(exchange, "/shop/orders/view?id=1");
                } else { // as the shop answers a confirmation that is not the one it showed
                    page(exchange, SIGNED_ON + "<p class=\"alert\">This confirmation is out of date; please check the "
                            + "order again.</p>" + order());
                }
            }
            case "POST /signoff" -> page(exchange, "<a id=\"sign-on\">Sign on</a>");
            case "GET /slow-redirect" -> {
                sleep(400);
                redirect(exchange, "/shop/slow");
            }
            case "GET /slow" -> {
                sleep(400);
                page(exchange, SIGNED_ON);
            }
            default -> {
                exchange.sendResponseHeaders(404, -1);
                exchange.close();
            }
        }
    }

    private String orderIfPlaced(String path) {
        return path.equals("/orders/view") ? order() : "";
    }

    private String order() {
        String total = new BigDecimal("16.50").multiply(BigDecimal.valueOf(added.get())).toPlainString();
        return "<table id=\"order-lines\"><tbody><tr><td>EST-1</td><td>Angelfish</td><td>$16.50</td><td>" + added
                + "</td><td>$" + total + "</td></tr></tbody></table><span id=\"total\">$" + total + "</span>";
    }

    private static void page(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = ("<html><body>" + body + "</body></html>").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/html; charset=UTF-8");
        exchange.sendResponseHeaders(200, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    private static void redirect(HttpExchange exchange, String location) throws IOException {
        exchange.getResponseHeaders().add("Location", location);
        exchange.sendResponseHeaders(302, -1);
        exchange.close();
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
