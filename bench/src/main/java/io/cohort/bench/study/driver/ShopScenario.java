package io.cohort.bench.study.driver;

import java.math.BigDecimal;
import java.time.Year;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;

/**
 * One scenario of the study for one virtual user, checking the session as it goes: sign on with a random
 * account · search a random keyword · open a random result (product) and one of its items · add the item to
 * the cart · repeat search/pick/add 1–5 times at random · check out · sign off. "Place order" posts the
 * confirmation form's hidden fields (its order token and fingerprint), as a browser does.
 *
 * <p>Checks, each a "session lost or stale" when it fails: every page after sign-on shows the customer
 * signed on (a POST answered 403, the sign-on's included, means the session and its anti-forgery token are
 * gone); the cart after each add, the confirmation and the placed order hold exactly the items and quantities
 * this user added; placing the order does not send the user back to the checkout (the order draft is gone);
 * the confirmation's and the order's totals equal the sum of the prices the item pages showed. Anything else
 * that is not the expected page is an error, counted with the pages that failed.
 */
final class ShopScenario {

    /** What the shop's confirmation says when the order posted is not the one it showed (ConfirmationForm). */
    private static final String CHECK_AGAIN = "please check the order again";

    static final String PASSWORD = "password";
    static final int MAX_ROUNDS = 5;

    private final ShopBrowser browser;
    private final Random random;
    private final DriverContext context;
    private final Map<String, Integer> added = new LinkedHashMap<>();
    private final Map<String, BigDecimal> prices = new LinkedHashMap<>();

    ShopScenario(ShopBrowser browser, Random random, DriverContext context) {
        this.browser = browser;
        this.random = random;
        this.context = context;
    }

    CompletableFuture<Void> run() {
        String account = "user" + random.nextInt(context.settings.accounts());
        int rounds = 1 + random.nextInt(MAX_ROUNDS);
        return browser.get("/signon").thenApply(p -> expectStatus(p, "the sign-on page"))
                .thenCompose(p -> browser.post("/signon", "username", account, "password", PASSWORD))
                .thenApply(p -> {
                    if (p.status() == 403) {
                        throw ScenarioAbort.sessionLost("sign-on refused (403): the session of the sign-on page, "
                                + "with its anti-forgery token, was gone");
                    }
                    if (!p.signedOn() && p.signedOff() && !"/signon".equals(p.path())) {
                        // the sign-on was accepted (it redirected on), and the next page no longer had the session
                        throw ScenarioAbort.sessionLost("signed off right after signing on (" + p.uri() + ")");
                    }
                    if (!p.signedOn()) {
                        throw ScenarioAbort.error("sign-on as " + account + " failed: " + p);
                    }
                    return p;
                })
                .thenCompose(p -> rounds(rounds))
                .thenCompose(v -> browser.get("/checkout"))
                .thenApply(p -> expectPath(signedOn(p, "checkout"), "/checkout", "checkout"))
                .thenCompose(p -> browser.post("/checkout", payment()))
                .thenApply(p -> checkOrder(expectConfirmation(signedOn(p, "the confirmation")), "the confirmation"))
                .thenCompose(p -> browser.post("/checkout/confirm", p.hiddenFields("/checkout/confirm")))
                .thenApply(p -> checkOrder(expectPlacedOrder(signedOn(p, "the placed order")), "the placed order"))
                .thenCompose(p -> browser.post("/signoff"))
                .thenAccept(p -> {
                    if (p.status() == 403) {
                        throw ScenarioAbort.sessionLost("sign-off refused (403): the session was gone");
                    }
                    if (!p.signedOff()) {
                        throw ScenarioAbort.error("still signed on after sign-off: " + p);
                    }
                });
    }

    private CompletableFuture<Void> rounds(int left) {
        if (left == 0) {
            return CompletableFuture.completedFuture(null);
        }
        return pickAndAdd().thenCompose(v -> rounds(left - 1));
    }

    private CompletableFuture<Void> pickAndAdd() {
        String keyword = context.vocabulary.pick(random);
        return browser.get("/search?keywords=" + keyword)
                .thenApply(p -> pick(signedOn(p, "search"), p.productLinks(), "products found for " + keyword))
                .thenCompose(product -> browser.get("/product?id=" + product))
                .thenApply(p -> pick(signedOn(p, "a product"), p.itemLinks(), "items on " + p.uri()))
                .thenCompose(item -> browser.get("/item?id=" + item))
                .thenCompose(p -> {
                    signedOn(p, "an item");
                    String item = p.uri().getQuery().substring("id=".length());
                    BigDecimal price = p.amount("price")
                            .orElseThrow(() -> ScenarioAbort.error("no price on " + p.uri()));
                    return browser.post("/cart/add", "itemId", item).thenApply(cart -> {
                        expectPath(signedOn(cart, "the cart"), "/cart", "the cart");
                        added.merge(item, 1, Integer::sum);
                        prices.put(item, price);
                        Map<String, Integer> holds = cart.cartQuantities();
                        if (!holds.equals(added)) {
                            throw ScenarioAbort.sessionLost("cart holds " + holds + " but the user added " + added);
                        }
                        return null;
                    });
                });
    }

    private ShopPage checkOrder(ShopPage page, String what) {
        Map<String, Integer> lines = page.orderLines();
        if (!lines.equals(added)) {
            throw ScenarioAbort.sessionLost(what + " lists " + lines + " but the user added " + added);
        }
        BigDecimal expected = expectedTotal();
        BigDecimal total = page.amount("total").orElseThrow(() -> ScenarioAbort.error("no total on " + what));
        if (total.compareTo(expected) != 0) {
            throw ScenarioAbort.sessionLost(what + " totals " + total + ", expected " + expected);
        }
        return page;
    }

    BigDecimal expectedTotal() {
        BigDecimal total = BigDecimal.ZERO;
        for (Map.Entry<String, Integer> line : added.entrySet()) {
            total = total.add(prices.get(line.getKey()).multiply(BigDecimal.valueOf(line.getValue())));
        }
        return total;
    }

    /** A page that must show the customer signed on; a signed-off page or a refused POST is a lost session. */
    private static ShopPage signedOn(ShopPage page, String what) {
        if (page.status() == 403) {
            throw ScenarioAbort.sessionLost("403 at " + what + ": the session's anti-forgery token was gone");
        }
        if (page.signedOff() || "/signon".equals(page.path())) {
            throw ScenarioAbort.sessionLost("signed off at " + what + " (" + page.uri() + ")");
        }
        expectStatus(page, what);
        if (!page.signedOn()) {
            throw ScenarioAbort.error("unexpected page at " + what + ": " + page);
        }
        return page;
    }

    private static ShopPage expectStatus(ShopPage page, String what) {
        if (page.status() != 200) {
            throw ScenarioAbort.error(page.status() + " at " + what + " (" + page.uri() + ")");
        }
        return page;
    }

    private static ShopPage expectPath(ShopPage page, String path, String what) {
        if (path.equals(page.path())) {
            return page;
        }
        if ("/cart".equals(page.path())) {
            throw ScenarioAbort.sessionLost("sent back to the cart at " + what + ": the cart was gone");
        }
        throw ScenarioAbort.error("expected " + path + " at " + what + ", got " + page);
    }

    /**
     * The confirmation, reached by the redirect after the payment was accepted (the driver's payment is always valid);
     * sent back to the checkout's first step instead, the session had lost the draft the payment just saved.
     */
    private static ShopPage expectConfirmation(ShopPage page) {
        if ("/checkout".equals(page.path())) {
            throw ScenarioAbort.sessionLost("sent back to the checkout at the confirmation: the checkout draft was gone");
        }
        return expectPath(page, "/checkout/confirm", "the confirmation");
    }

    /**
     * The placed order; sent back to the checkout's first step, the session had lost the checkout's draft; shown the
     * confirmation again asking to check the order again, the session's cart, details or draft were not those the
     * confirmation showed (one user in one tab changes nothing in between: the session was stale). The confirmation
     * shown again for another reason (out of stock, a new price) is the shop's answer: an error.
     */
    private static ShopPage expectPlacedOrder(ShopPage page) {
        if ("/checkout".equals(page.path())) {
            throw ScenarioAbort.sessionLost("sent back to the checkout at the placed order: the order draft was gone");
        }
        if ("/checkout/confirm".equals(page.path()) && page.body().contains(CHECK_AGAIN)) {
            throw ScenarioAbort.sessionLost("the confirmation came back at the placed order: the session's cart or "
                    + "details were not those it showed");
        }
        return expectPath(page, "/orders/view", "the placed order");
    }

    private String pick(ShopPage page, List<String> choices, String what) {
        if (choices.isEmpty()) {
            throw ScenarioAbort.error("no " + what);
        }
        return choices.get(random.nextInt(choices.size()));
    }

    private static String[] payment() {
        return new String[] {"cardType", "Visa", "cardNumber", "4111 1111 1111 1111",
            "expiry", "12/" + (Year.now().getValue() + 1), "bill.firstName", "Bench", "bill.lastName", "User",
            "bill.address1", "1 Load Road", "bill.address2", "", "bill.city", "Driverton", "bill.state", "CA",
            "bill.zip", "94000", "bill.country", "USA"};
    }
}
