package io.cohort.bench.jmeter;

import java.io.IOException;
import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Year;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One shopper going once through every page of the benchmark scenario on one node (sign on,
 * search, product, item, add to cart, checkout, confirm, sign off), so that the node has compiled
 * all the shop's JSPs before a short load run: on a busy 2-core machine the first request of each
 * JSP takes seconds. Each page must answer 200.
 */
final class ShopWarmUp {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern TOKEN = Pattern.compile("<meta name=\"csrf-token\" content=\"([^\"]+)\">");
    private static final Pattern PRODUCT_LINK = Pattern.compile("/product\\?id=([^\"&]+)\"");
    private static final Pattern ITEM_LINK = Pattern.compile("/item\\?id=([^\"&]+)\"");
    private static final Pattern ORDER_TOKEN = Pattern.compile("name=\"orderToken\" value=\"([^\"]+)\"");
    private static final Pattern ORDER_FINGERPRINT = Pattern.compile("name=\"orderFingerprint\" value=\"([^\"]+)\"");

    private final URI shop;
    private final HttpClient http = HttpClient.newBuilder()
            .cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL))
            .followRedirects(HttpClient.Redirect.NORMAL)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private String token = "";

    private ShopWarmUp(URI shop) {
        this.shop = shop;
    }

    /**
     * @param shop     the shop's address on one node, e.g. {@code http://127.0.0.1:8081/jpetstore}
     * @param keyword  a keyword that finds products
     * @param username an account whose password is {@code password}
     */
    static void visitEveryPage(URI shop, String keyword, String username) throws IOException, InterruptedException {
        new ShopWarmUp(shop).shopOnce(keyword, username);
    }

    private void shopOnce(String keyword, String username) throws IOException, InterruptedException {
        get("/signon");
        post("/signon", "username", username, "password", "password");
        String product = firstMatch(PRODUCT_LINK, get("/search?keywords=" + keyword), "a product link");
        String item = firstMatch(ITEM_LINK, get("/product?id=" + product), "an item link");
        get("/item?id=" + item);
        post("/cart/add", "itemId", item);
        get("/checkout");
        String confirmation = post("/checkout", "cardType", "Visa", "cardNumber", "4111 1111 1111 1111",
                "expiry", "12/" + Year.now().plusYears(1), "bill.firstName", "Warm", "bill.lastName", "Up",
                "bill.address1", "1 Load Street", "bill.address2", "", "bill.city", "Testville", "bill.state", "CA",
                "bill.zip", "94000", "bill.country", "USA");
        String order = post("/checkout/confirm", "orderToken", firstMatch(ORDER_TOKEN, confirmation, "an order token"),
                "orderFingerprint", firstMatch(ORDER_FINGERPRINT, confirmation, "an order fingerprint"));
        if (!order.contains("data-order-id=")) {
            throw new IOException("the order was not placed:\n" + order);
        }
        post("/signoff");
    }

    private String get(String pathAndQuery) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(URI.create(shop + pathAndQuery)).GET());
    }

    private String post(String path, String... namesAndValues) throws IOException, InterruptedException {
        StringJoiner form = new StringJoiner("&");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            form.add(encode(namesAndValues[i]) + "=" + encode(namesAndValues[i + 1]));
        }
        form.add("_csrf=" + encode(token));
        return send(HttpRequest.newBuilder(URI.create(shop + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form.toString())));
    }

    private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.timeout(TIMEOUT).build();
        HttpResponse<String> response = http.send(built, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException(built.method() + " " + built.uri() + " answered " + response.statusCode());
        }
        Matcher m = TOKEN.matcher(response.body());
        if (m.find()) {
            token = m.group(1);
        }
        return response.body();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String firstMatch(Pattern pattern, String page, String what) throws IOException {
        Matcher m = pattern.matcher(page);
        if (!m.find()) {
            throw new IOException("no " + what + " on the page:\n" + page);
        }
        return m.group(1);
    }
}
