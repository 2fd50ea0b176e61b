package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.SessionSnapshotServlet;
import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopServer;
import io.cohort.jpetstore.testing.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An order is placed once even when the session forgets it was placed: the node that placed it crashed before the
 * session's new state was replicated, so the backup's copy from before the "Place order" submit takes over and the
 * browser submits the same confirmation again. The session is played back with {@link SessionSnapshotServlet}; the
 * database, as in a cluster, is the one that saw the first order. A contract that each database runs through a thin
 * subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractOrderResubmitTest {
    private static final String SNAPSHOT = "/__session-snapshot";
    private static final String NEXT_YEARS_CARD_EXPIRY =
            YearMonth.now().plusYears(1).format(DateTimeFormatter.ofPattern("MM/yyyy"));

    private TestDatabase database;
    private ShopServer server;

    protected abstract TestDatabase openDatabase();

    @BeforeAll
    void startShop() throws Exception {
        database = openDatabase();
        server = ShopServer.start(database.dataSource(), Map.of(),
                app -> app.addServlet(new ServletHolder(new SessionSnapshotServlet()), SNAPSHOT));
    }

    @AfterAll
    void stopShop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (database != null) {
            database.close();
        }
    }

    @Test
    void confirmationResubmittedFromASessionThatNeverLearnedOfItsOrderPlacesNoSecondOrder() {
        ShopClient customer = new ShopClient(server);
        String username = createAccount(customer);
        PlacedThenForgotten first = placeThenRestoreFromBefore(customer, "EST-22");
        assertThat(customer.get("/cart").textOf("cart-count")).as("the session is as before the order").isEqualTo("1");

        Page again = customer.postRaw("/checkout/confirm", first.placeOrder());

        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + username + "'"))
                .as("orders of " + username).isEqualTo(1);
        assertThat(again.path()).isEqualTo("/orders/view");
        assertThat(orderIdOf(again)).isEqualTo(first.orderId());
        assertThat(again.body()).contains("Your order was placed already; it was not placed again.");
        assertThat(customer.get("/cart").body()).as("the ordered cart is done with").contains("id=\"cart-empty\"");
    }

    @Test
    void aCheckoutStartedAgainFromASessionThatNeverLearnedOfItsOrderShowsThatOrderAndOrdersOnlyWhatIsNew() {
        ShopClient customer = new ShopClient(server);
        String username = createAccount(customer);
        String firstOrder = placeThenRestoreFromBefore(customer, "EST-24").orderId();

        // the customer does not resubmit: they add to the cart and start the checkout again
        customer.post("/cart/add", "itemId", "EST-25");
        Page again = customer.get("/checkout");

        assertThat(again.path()).isEqualTo("/orders/view");
        assertThat(orderIdOf(again)).isEqualTo(firstOrder);
        assertThat(again.body()).contains("Your order was placed already; it was not placed again.");
        Page cart = customer.get("/cart");
        assertThat(cart.textOf("cart-count")).as("the ordered item is out of the cart, the new one stays").isEqualTo("1");
        assertThat(cart.textOf("cart")).contains("EST-25").doesNotContain("EST-24");

        Page newConfirm = customer.post("/checkout", paymentFields());
        assertThat(newConfirm.path()).isEqualTo("/checkout/confirm");
        Page placed = customer.postRaw("/checkout/confirm", newConfirm.hiddenFields("/checkout/confirm"));
        assertThat(placed.path()).isEqualTo("/orders/view");
        assertThat(placed.body()).contains("Thank you! Your order is placed.");
        assertThat(orderIdOf(placed)).isNotEqualTo(firstOrder);
        assertThat(placed.textOf("order-lines")).contains("EST-25").doesNotContain("EST-24");
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + username + "'")).isEqualTo(2);
    }

    @Test
    void resubmittingAfterAddingToARestoredSessionShowsTheOrderAndKeepsWhatWasAddedInTheCart() {
        ShopClient customer = new ShopClient(server);
        createAccount(customer);
        PlacedThenForgotten first = placeThenRestoreFromBefore(customer, "EST-20");

        customer.post("/cart/add", "itemId", "EST-21");
        Page again = customer.postRaw("/checkout/confirm", first.placeOrder());

        assertThat(again.path()).isEqualTo("/orders/view");
        assertThat(orderIdOf(again)).isEqualTo(first.orderId());
        Page cart = customer.get("/cart");
        assertThat(cart.textOf("cart-count")).as("only what the order holds is out of the cart").isEqualTo("1");
        assertThat(cart.textOf("cart")).contains("EST-21").doesNotContain("EST-20");
    }

    /**
     * Two nodes place the same checkout's order at the same moment, each from its own copy of the session: the other
     * node's copy did not have the item added last yet. The order that this node finds placed when it commits holds
     * only what that copy held; the item added last stays in the cart, not ordered and not lost.
     */
    @Test
    void anOrderAnotherNodePlacesWithTheSameTokenMeanwhileTakesOnlyItsOwnItemsOutOfTheCart() throws Exception {
        ShopClient customer = new ShopClient(server);
        String username = createAccount(customer);
        customer.post("/cart/add", "itemId", "EST-18");
        String template = orderIdOf(customer.postRaw("/checkout/confirm",
                customer.post("/checkout", paymentFields()).hiddenFields("/checkout/confirm")));
        customer.post("/cart/add", "itemId", "EST-18");
        customer.post("/cart/add", "itemId", "EST-19");
        String[] placeOrder = customer.post("/checkout", paymentFields()).hiddenFields("/checkout/confirm");

        ExecutorService tab = Executors.newSingleThreadExecutor();
        Page placed;
        try (Connection otherNode = database.lockItemRow("EST-18")) {
            Future<Page> placing = tab.submit(() -> customer.postRaw("/checkout/confirm", placeOrder));
            database.awaitSessionBlockedBy(otherNode); // this node is placing the order: it waits for EST-18's stock
            copyOrder(otherNode, Long.parseLong(template), field(placeOrder, "orderToken")); // EST-18 alone
            otherNode.commit();
            placed = placing.get(30, TimeUnit.SECONDS);
        } finally {
            tab.shutdownNow();
        }

        assertThat(placed.path()).isEqualTo("/orders/view");
        assertThat(placed.body()).contains("Your order was placed already; it was not placed again.");
        assertThat(placed.textOf("order-lines")).contains("EST-18").doesNotContain("EST-19");
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + username + "'")).isEqualTo(2);
        Page cart = customer.get("/cart");
        assertThat(cart.textOf("cart-count")).as("only what the other node ordered is out of the cart").isEqualTo("1");
        assertThat(cart.textOf("cart")).contains("EST-19").doesNotContain("EST-18");
    }

    /** Writes, on {@code c}, a copy of order {@code orderId} with lines and all, under {@code orderToken}. */
    private static void copyOrder(Connection c, long orderId, String orderToken) throws SQLException {
        String columns = "username, placed_at, card_type, card_masked, card_expiry, total, "
                + Stream.of("bill_", "ship_").flatMap(prefix -> Stream.of("first_name", "last_name", "address1",
                        "address2", "city", "state", "zip", "country").map(name -> prefix + name))
                        .collect(Collectors.joining(", "));
        try (PreparedStatement order = c.prepareStatement("INSERT INTO orders (" + columns + ", order_token) SELECT "
                + columns + ", ? FROM orders WHERE order_id = ?")) {
            order.setString(1, orderToken);
            order.setLong(2, orderId);
            assertThat(order.executeUpdate()).isEqualTo(1);
        }
        try (PreparedStatement lines = c.prepareStatement("INSERT INTO order_line (order_id, line_number, item_id,"
                + " quantity, unit_price) SELECT (SELECT order_id FROM orders WHERE order_token = ?), line_number,"
                + " item_id, quantity, unit_price FROM order_line WHERE order_id = ?")) {
            lines.setString(1, orderToken);
            lines.setLong(2, orderId);
            assertThat(lines.executeUpdate()).isPositive();
        }
    }

    private static String field(String[] fields, String name) {
        for (int i = 0; i < fields.length; i += 2) {
            if (fields[i].equals(name)) {
                return fields[i + 1];
            }
        }
        throw new AssertionError("no field " + name);
    }

    @Test
    void anotherCustomerSubmittingTheSameConfirmationSeesNothingOfTheOrder() {
        ShopClient customer = new ShopClient(server);
        String username = createAccount(customer);
        customer.post("/cart/add", "itemId", "EST-23");
        Page confirm = customer.post("/checkout", paymentFields());
        String[] placeOrder = confirm.hiddenFields("/checkout/confirm");
        String orderId = orderIdOf(customer.postRaw("/checkout/confirm", placeOrder));

        ShopClient other = new ShopClient(server);
        String otherName = createAccount(other);
        other.post("/cart/add", "itemId", "EST-23");
        other.post("/checkout", paymentFields());
        Page page = other.post("/checkout/confirm", withoutCsrf(placeOrder));

        assertThat(page.body()).doesNotContain("data-order-id=\"" + orderId + "\"");
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + username + "'")).isEqualTo(1);
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + otherName + "'")).isZero();
    }

    /** A placed order's confirmation form and order id. */
    private record PlacedThenForgotten(String[] placeOrder, String orderId) {
    }

    /**
     * Orders one {@code itemId}, then plays the session back to its copy from before the "Place order" submit: the
     * owner crashed before the order's effect on the session was replicated.
     */
    private static PlacedThenForgotten placeThenRestoreFromBefore(ShopClient customer, String itemId) {
        customer.post("/cart/add", "itemId", itemId);
        Page confirm = customer.post("/checkout", paymentFields());
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");
        String[] placeOrder = confirm.hiddenFields("/checkout/confirm");
        assertThat(customer.get(SNAPSHOT + "?save").status()).as("backup copy taken").isEqualTo(204);
        Page placed = customer.postRaw("/checkout/confirm", placeOrder);
        assertThat(placed.path()).isEqualTo("/orders/view");
        assertThat(customer.get(SNAPSHOT + "?restore").status()).as("backup copy restored").isEqualTo(204);
        return new PlacedThenForgotten(placeOrder, orderIdOf(placed));
    }

    private static String[] withoutCsrf(String[] fields) {
        java.util.List<String> kept = new java.util.ArrayList<>();
        for (int i = 0; i < fields.length; i += 2) {
            if (!fields[i].equals("_csrf")) {
                kept.add(fields[i]);
                kept.add(fields[i + 1]);
            }
        }
        return kept.toArray(String[]::new);
    }

    private static String createAccount(ShopClient visitor) {
        String username = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        visitor.get("/account/new");
        Page welcome = visitor.post("/account/new", "username", username, "password", "secret-pw",
                "repeatedPassword", "secret-pw", "email", username + "@example.com", "phone", "555-0199",
                "favouriteCategory", "BIRDS", "firstName", "Test", "lastName", "Tester", "address1", "1 Test Road",
                "address2", "", "city", "Testville", "state", "CA", "zip", "94000", "country", "USA");
        assertThat(welcome.body()).contains("Your account is ready");
        return username;
    }

    private static String[] paymentFields() {
        return new String[] {"cardType", "Visa", "cardNumber", "4111 1111 1111 1111", "expiry", NEXT_YEARS_CARD_EXPIRY,
            "bill.firstName", "Test", "bill.lastName", "Tester", "bill.address1", "1 Test Road", "bill.address2", "",
            "bill.city", "Testville", "bill.state", "CA", "bill.zip", "94000", "bill.country", "USA"};
    }

    private static String orderIdOf(Page order) {
        Matcher m = Pattern.compile("data-order-id=\"(\\d+)\"").matcher(order.body());
        assertThat(m.find()).as("order id on " + order).isTrue();
        return m.group(1);
    }
}
