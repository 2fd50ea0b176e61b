package io.cohort.jpetstore.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.jpetstore.testing.ShopClient.Page;
import io.cohort.jpetstore.testing.ShopClient;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.testing.ShopServer;
import io.cohort.jpetstore.testing.TestDatabase;
import java.time.YearMonth;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every page flow of the shop over HTTP, against the standard data set: a contract that each database runs
 * through a thin subclass. Each test is a new visitor (its own cookies, so its own session).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractShopFlowsTest {
    private static final String GOOD_CARD = "4111 1111 1111 1111";
    private static final String NEXT_YEARS_CARD_EXPIRY =
            YearMonth.now().plusYears(1).format(DateTimeFormatter.ofPattern("MM/yyyy"));

    private TestDatabase database;
    private ShopHost server;

    protected abstract TestDatabase openDatabase();

    /** Starts the shop on the database; here on an embedded Jetty, elsewhere on a Cohort node. */
    protected ShopHost startShop(TestDatabase database) throws Exception {
        return ShopServer.start(database.dataSource());
    }

    @BeforeAll
    void startShop() throws Exception {
        database = openDatabase();
        server = startShop(database);
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

    private ShopClient visitor() {
        return new ShopClient(server);
    }

    // ---- browsing ------------------------------------------------------------------------------------------

    @Test
    void homePageListsTheFiveCategories() {
        Page home = visitor().get("/");
        assertThat(home.status()).isEqualTo(200);
        assertThat(home.all("category\\?id=([A-Z]+)\"")).contains("FISH", "DOGS", "REPTILES", "CATS", "BIRDS");
        assertThat(home.body()).contains("<title>Welcome · JPetStore</title>").contains("Sign on");
    }

    @Test
    void categoryPageListsItsProducts() {
        Page fish = visitor().get("/category?id=FISH");
        assertThat(fish.status()).isEqualTo(200);
        assertThat(fish.textOf("products")).contains("Angelfish", "Tiger Shark", "Koi", "Goldfish");
        assertThat(fish.all("product\\?id=([A-Z0-9-]+)\"")).containsOnly("FI-SW-01", "FI-SW-02", "FI-FW-01", "FI-FW-02");
    }

    @Test
    void productPageListsItsItemsWithPriceAndStock() {
        Page angelfish = visitor().get("/product?id=FI-SW-01");
        assertThat(angelfish.status()).isEqualTo(200);
        String items = angelfish.textOf("items");
        assertThat(items).contains("EST-1", "Large Angelfish", "$16.50", "EST-2", "Small Angelfish");
        assertThat(angelfish.body()).contains("action=\"/jpetstore/cart/add\"");
    }

    @Test
    void itemPageShowsPriceAndStockAndIsRememberedAsLastViewed() {
        ShopClient visitor = visitor();
        Page item = visitor.get("/item?id=EST-16");
        assertThat(item.status()).isEqualTo(200);
        assertThat(item.textOf("price")).isEqualTo("$93.50");
        assertThat(item.textOf("stock")).matches("\\d+ in stock");
        assertThat(visitor.get("/").body()).contains("Last viewed:").contains("Adult Female Persian");
    }

    // ---- search ----------------------------------------------------------------------------------------------

    @Test
    void searchFindsProductsByNameAndByCategoryWordInSingularOrPlural() {
        ShopClient visitor = visitor();
        assertThat(visitor.get("/search?keywords=dogs").textOf("result-summary")).startsWith("6 products match");
        assertThat(visitor.get("/search?keywords=Dog").textOf("result-summary")).startsWith("6 products match");
        Page koi = visitor.get("/search?keywords=koi");
        assertThat(koi.textOf("results")).contains("FI-FW-01").doesNotContain("FI-SW-01");
    }

    @Test
    void searchResultsArePagedFromTheSession() {
        ShopClient visitor = visitor();
        Page first = visitor.get("/search?keywords=" + "dog+fish+cat");
        assertThat(first.textOf("result-summary")).startsWith("12 products match").contains("page 1 of 2");
        List<String> firstPage = first.all("<td class=\"mono\"><a href=\"/jpetstore/product\\?id=([A-Z0-9-]+)\"");
        assertThat(firstPage).hasSize(10);

        Page second = visitor.get("/search?page=2");
        List<String> secondPage = second.all("<td class=\"mono\"><a href=\"/jpetstore/product\\?id=([A-Z0-9-]+)\"");
        assertThat(second.textOf("result-summary")).contains("page 2 of 2");
        assertThat(secondPage).hasSize(2).doesNotContainAnyElementsOf(firstPage);
        assertThat(second.body()).contains("value=\"dog fish cat\"");
    }

    @Test
    void pagingWithoutAnEarlierSearchGoesHome() {
        Page page = visitor().get("/search?page=2");
        assertThat(page.path()).isEqualTo("/");
    }

    @Test
    void searchWithoutKeywordsAsksForAWordAndUnknownWordsFindNothing() {
        ShopClient visitor = visitor();
        assertThat(visitor.get("/search?keywords=+").body()).contains("Please type a word to search for");
        assertThat(visitor.get("/search?keywords=unicorn").textOf("result-summary")).startsWith("Nothing matches");
    }

    @Test
    void keywordListForLoadDriversIsPlainText() {
        Page keywords = visitor().get("/keywords.txt");
        assertThat(keywords.status()).isEqualTo(200);
        assertThat(keywords.contentType()).startsWith("text/plain");
        assertThat(keywords.body().lines()).contains("angelfish", "bulldog", "parrot");
    }

    // ---- cart ------------------------------------------------------------------------------------------------

    @Test
    void cartAddsUpdatesAndRemovesItemsAndKeepsTheSubtotal() {
        ShopClient visitor = visitor();
        visitor.get("/item?id=EST-1");
        visitor.post("/cart/add", "itemId", "EST-1");
        Page cart = visitor.post("/cart/add", "itemId", "EST-1");
        assertThat(cart.path()).isEqualTo("/cart");
        assertThat(cart.body()).contains("The item is in your cart.");
        cart = visitor.post("/cart/add", "itemId", "EST-6");
        assertThat(cart.textOf("subtotal")).isEqualTo("$51.50");
        assertThat(cart.textOf("cart-count")).isEqualTo("3");

        cart = visitor.post("/cart/update", "quantity-EST-1", "3", "quantity-EST-6", "1");
        assertThat(cart.textOf("subtotal")).isEqualTo("$68.00");
        cart = visitor.post("/cart/remove", "itemId", "EST-6");
        assertThat(cart.textOf("subtotal")).isEqualTo("$49.50");
        cart = visitor.post("/cart/update", "quantity-EST-1", "0");
        assertThat(cart.body()).contains("id=\"cart-empty\"");
    }

    @Test
    void badQuantityIsRejectedWithAMessageAndTheCartIsUnchanged() {
        ShopClient visitor = visitor();
        visitor.get("/item?id=EST-4");
        visitor.post("/cart/add", "itemId", "EST-4");
        Page cart = visitor.post("/cart/update", "quantity-EST-4", "lots");
        assertThat(cart.body()).contains("Quantity should be a whole number from 0 to 99.");
        assertThat(cart.textOf("subtotal")).isEqualTo("$18.50");
        assertThat(visitor.post("/cart/update", "quantity-EST-4", "100").body())
                .contains("Quantity should be a whole number from 0 to 99.");
    }

    @Test
    void addingAnUnknownItemIsANotFoundPage() {
        ShopClient visitor = visitor();
        visitor.get("/item?id=EST-2");
        Page page = visitor.post("/cart/add", "itemId", "EST-999");
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.textOf("error-detail")).isEqualTo("There is no item 'EST-999'.");
    }

    // ---- sign on, sign off -------------------------------------------------------------------------------

    @Test
    void signOnWithAWrongPasswordShowsAMessage() {
        ShopClient visitor = visitor();
        Page page = visitor.signOn("j2ee", "wrong");
        assertThat(page.path()).isEqualTo("/signon");
        assertThat(page.body()).contains("That user name and password do not match an account.")
                .doesNotContain("Sign off");
    }

    @Test
    void signOffInvalidatesTheSession() {
        ShopClient visitor = visitor();
        Page home = visitor.signOn("j2ee", "j2ee");
        assertThat(home.path()).isEqualTo("/");
        assertThat(home.body()).contains("You are signed on.").contains("Hi, Jean").contains("Your favourite");
        visitor.post("/cart/add", "itemId", "EST-7");

        Page after = visitor.post("/signoff");
        assertThat(after.body()).contains("You have signed off.").contains("id=\"sign-on\"").doesNotContain("cart-count");
        assertThat(visitor.get("/cart").body()).contains("id=\"cart-empty\"");
        assertThat(visitor.get("/orders").path()).isEqualTo("/signon");
    }

    @Test
    void signOnReturnsToThePageThatAskedForIt() {
        ShopClient visitor = visitor();
        Page signOn = visitor.get("/orders");
        assertThat(signOn.path()).isEqualTo("/signon");
        assertThat(signOn.body()).contains("name=\"next\" value=\"/orders\"");
        Page orders = visitor.post("/signon", "username", "ACID", "password", "ACID", "next", "/orders");
        assertThat(orders.path()).isEqualTo("/orders");
        assertThat(orders.body()).contains("<h1>Your orders</h1>");
    }

    @ParameterizedTest
    @ValueSource(strings = {"//evil.invalid/", "/..//evil.invalid/", "/./..//evil.invalid/", "/x/../..//evil.invalid/",
            "/%2e%2e//evil.invalid/", "/.%2E//evil.invalid/"})
    void signOnIgnoresAReturnAddressOutsideTheShop(String next) {
        ShopClient visitor = visitor();
        visitor.get("/signon");
        Page page = visitor.post("/signon", "username", "ACID", "password", "ACID", "next", next);
        assertThat(page.uri().getHost()).isEqualTo("127.0.0.1");
        assertThat(page.path()).isEqualTo("/");
    }

    @Test
    void signOnReturnsToThePageItWasAskedFrom() {
        ShopClient visitor = visitor();
        visitor.get("/signon?next=/cart");
        Page page = visitor.post("/signon", "username", "ACID", "password", "ACID", "next", "/cart");
        assertThat(page.path()).isEqualTo("/cart");
    }

    // ---- accounts ------------------------------------------------------------------------------------------

    @Test
    void newAccountIsCreatedSignedOnAndCanSignOnAgain() {
        ShopClient visitor = visitor();
        String username = freshUsername();
        Page welcome = createAccount(visitor, username);
        assertThat(welcome.path()).isEqualTo("/");
        assertThat(welcome.body()).contains("Your account is ready").contains("Hi, Test");

        visitor.post("/signoff");
        ShopClient again = visitor();
        assertThat(again.signOn(username, "secret-pw").body()).contains("You are signed on.");
    }

    @Test
    void newAccountFormReportsEveryInvalidField() {
        ShopClient visitor = visitor();
        visitor.get("/account/new");
        Page page = visitor.post("/account/new", "username", "x", "password", "123", "repeatedPassword", "124",
                "email", "not-an-address", "phone", "", "firstName", "", "lastName", "Tester", "address1", "1 Road",
                "city", "Town", "state", "CA", "zip", "9", "country", "USA", "favouriteCategory", "WHALES");
        assertThat(page.status()).isEqualTo(200);
        assertThat(page.body())
                .contains("Please correct the fields marked below.")
                .contains("User name should be 3 to 40 letters")
                .contains("Password should be 6 to 100 characters long.")
                .contains("The two passwords are not the same.")
                .contains("E-mail should look like name@example.com.")
                .contains("Phone is required.")
                .contains("First name is required.")
                .contains("ZIP code should be 3 to 12")
                .contains("Please pick one of the listed categories.")
                .contains("value=\"Tester\"");
    }

    @Test
    void takenUserNameIsRefused() {
        ShopClient visitor = visitor();
        Page page = createAccount(visitor, "j2ee");
        assertThat(page.path()).isEqualTo("/account/new");
        assertThat(page.body()).contains("That user name is taken; please choose another.");
    }

    @Test
    void editAccountSavesTheProfileAndANewPassword() {
        ShopClient visitor = visitor();
        String username = freshUsername();
        createAccount(visitor, username);
        Page form = visitor.get("/account/edit");
        assertThat(form.textOf("username")).isEqualTo(username);
        assertThat(form.body()).contains("value=\"1 Test Road\"");

        Page saved = visitor.post("/account/edit", accountFields(username, "Renamed", "new-secret"));
        assertThat(saved.path()).isEqualTo("/account/edit");
        assertThat(saved.body()).contains("Your account is saved.").contains("value=\"Renamed\"").contains("Hi, Renamed");

        visitor.post("/signoff");
        assertThat(visitor().signOn(username, "new-secret").body()).contains("You are signed on.");
    }

    // ---- checkout and orders -----------------------------------------------------------------------------

    @Test
    void checkoutNeedsASignedOnCustomerAndAFullCart() {
        ShopClient visitor = visitor();
        assertThat(visitor.get("/checkout").path()).isEqualTo("/signon");
        visitor.signOn("ACID", "ACID");
        assertThat(visitor.get("/checkout").path()).isEqualTo("/cart");
        assertThat(visitor.get("/checkout/confirm").path()).isEqualTo("/cart");
    }

    @Test
    void checkoutPlacesTheOrderAndTakesTheItemsFromStock() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        int stockBefore = stock(visitor, "EST-20");
        visitor.post("/cart/add", "itemId", "EST-20");
        visitor.post("/cart/update", "quantity-EST-20", "2");
        visitor.post("/cart/add", "itemId", "EST-21");

        Page payment = visitor.get("/checkout");
        assertThat(payment.body()).contains("value=\"1 Test Road\"").contains("$16.29");
        Page confirm = visitor.post("/checkout", paymentFields(false));
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");
        assertThat(confirm.textOf("total")).isEqualTo("$16.29");
        assertThat(confirm.body()).contains("**** 1111");

        Page order = visitor.post("/checkout/confirm");
        assertThat(order.path()).isEqualTo("/orders/view");
        assertThat(order.body()).contains("Thank you! Your order is placed.");
        assertThat(order.textOf("order-lines")).contains("EST-20", "Adult Male Goldfish", "EST-21");
        assertThat(order.textOf("total")).isEqualTo("$16.29");
        assertThat(stock(visitor, "EST-20")).isEqualTo(stockBefore - 2);
        assertThat(visitor.get("/cart").body()).contains("id=\"cart-empty\"");

        String orderId = orderIdOf(order);
        Page history = visitor.get("/orders");
        assertThat(history.textOf("orders")).contains("#" + orderId, "$16.29");
        assertThat(visitor.get("/orders/view?id=" + orderId).textOf("order-lines")).contains("EST-21");
    }

    @Test
    void whoSignsOnAsSomeoneElseDoesNotSeeOrUseTheFirstCustomersCheckoutDetails() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        visitor.post("/cart/add", "itemId", "EST-20");
        Page confirm = visitor.post("/checkout", paymentFields(false));
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");
        assertThat(confirm.body()).contains("1 Test Road", "**** 1111");

        visitor.signOn("ACID", "ACID"); // on a shared computer, without signing off first

        Page afterSignOn = visitor.get("/checkout/confirm");
        assertThat(afterSignOn.body()).doesNotContain("1 Test Road").doesNotContain("**** 1111");
        assertThat(afterSignOn.path()).as("the new customer enters payment details first").isEqualTo("/checkout");
    }

    @Test
    void theOrderPlacedIsTheOneConfirmedNotTheCartAnotherTabChangedSince() {
        ShopClient visitor = visitor();
        String username = freshUsername();
        createAccount(visitor, username);
        visitor.post("/cart/add", "itemId", "EST-20");
        Page confirm = visitor.post("/checkout", paymentFields(false));
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");
        String[] placeOrder = confirm.hiddenFields("/checkout/confirm");

        visitor.post("/cart/add", "itemId", "EST-21"); // in another tab, after the confirmation was shown
        visitor.post("/cart/update", "quantity-EST-20", "3", "quantity-EST-21", "1");
        Page refused = visitor.postRaw("/checkout/confirm", placeOrder);

        assertThat(refused.path()).as("shown the confirmation again").isEqualTo("/checkout/confirm");
        assertThat(refused.body()).contains("Your cart changed since you confirmed; please check the order again.");
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE username = '" + username + "'")).isZero();
        assertThat(refused.textOf("order-lines")).contains("EST-21");
        String total = refused.textOf("total");
        assertThat(total).isNotEqualTo(confirm.textOf("total"));

        Page order = visitor.post("/checkout/confirm"); // the new confirmation, confirmed
        assertThat(order.path()).isEqualTo("/orders/view");
        assertThat(order.textOf("order-lines")).contains("EST-20", "EST-21");
        assertThat(order.textOf("total")).isEqualTo(total);
    }

    @Test
    void checkoutCanShipToAnotherAddress() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        visitor.post("/cart/add", "itemId", "EST-18");
        visitor.get("/checkout");
        Page shipping = visitor.post("/checkout", paymentFields(true));
        assertThat(shipping.path()).isEqualTo("/checkout/shipping");
        assertThat(shipping.body()).contains("name=\"ship.address1\"");

        Page missing = visitor.post("/checkout/shipping", "ship.firstName", "Gift");
        assertThat(missing.body()).contains("Address is required.");
        Page confirm = visitor.post("/checkout/shipping", "ship.firstName", "Gift", "ship.lastName", "Receiver",
                "ship.address1", "9 Elsewhere Lane", "ship.address2", "", "ship.city", "Portland", "ship.state", "OR",
                "ship.zip", "97201", "ship.country", "USA");
        assertThat(confirm.path()).isEqualTo("/checkout/confirm");
        assertThat(confirm.body()).contains("9 Elsewhere Lane").contains("1 Test Road");

        Page order = visitor.post("/checkout/confirm");
        assertThat(order.body()).contains("Gift Receiver").contains("9 Elsewhere Lane").contains("$193.50");
    }

    @Test
    void checkoutRejectsABadCardWithMessages() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        visitor.post("/cart/add", "itemId", "EST-19");
        visitor.get("/checkout");
        String[] fields = paymentFields(false);
        fields[3] = "4111 1111 1111 1112";
        fields[5] = "01/2001";
        Page page = visitor.post("/checkout", fields);
        assertThat(page.path()).isEqualTo("/checkout");
        assertThat(page.body()).contains("That card number is not valid; please check it.")
                .contains("That card has expired.");
    }

    @Test
    void orderForMoreThanTheStockIsRefusedAndNothingIsWritten() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        visitor.post("/cart/add", "itemId", "EST-26");
        visitor.post("/cart/update", "quantity-EST-26", "5");
        visitor.get("/checkout");
        visitor.post("/checkout", paymentFields(false));
        long ordersBefore = database.queryLong("SELECT COUNT(*) FROM orders");
        database.execute("UPDATE item SET stock = 3 WHERE item_id = 'EST-26'");
        try {
            Page refused = visitor.post("/checkout/confirm");
            assertThat(refused.path()).isEqualTo("/checkout/confirm");
            assertThat(refused.body()).contains("Sorry, only 3 of Adult Male Chihuahua (EST-26) are left.");
            assertThat(database.queryLong("SELECT COUNT(*) FROM orders")).isEqualTo(ordersBefore);
            assertThat(database.queryLong("SELECT stock FROM item WHERE item_id = 'EST-26'")).isEqualTo(3);
        } finally {
            database.execute("UPDATE item SET stock = 10000 WHERE item_id = 'EST-26'");
        }
    }

    @Test
    void anOrderIsChargedThePriceTheCustomerConfirmedNeverAPriceThatChangedSince() {
        ShopClient visitor = visitor();
        createAccount(visitor, freshUsername());
        String shownPrice = visitor.get("/item?id=EST-25").textOf("price");
        visitor.post("/cart/add", "itemId", "EST-25");
        visitor.post("/cart/update", "quantity-EST-25", "2");
        visitor.get("/checkout");
        Page confirm = visitor.post("/checkout", paymentFields(false));
        assertThat(confirm.textOf("total")).isEqualTo(dollars(2 * cents(shownPrice)));
        long ordersBefore = database.queryLong("SELECT COUNT(*) FROM orders");
        int stockBefore = stock(visitor, "EST-25");
        database.execute("UPDATE item SET list_price = list_price + 1 WHERE item_id = 'EST-25'");
        try {
            String newPrice = dollars(cents(shownPrice) + 100);
            Page refused = visitor.postRaw("/checkout/confirm", confirm.hiddenFields("/checkout/confirm"));

            assertThat(refused.path()).isEqualTo("/checkout/confirm");
            assertThat(refused.body()).containsPattern("The price of [A-Za-z ]+ \\(EST-25\\) changed from " + java.util.regex.Pattern.quote(
                    shownPrice + " to " + newPrice + " since you put it in your cart; please check the order again."));
            assertThat(refused.textOf("total")).as("the confirmation shown again is at the current price")
                    .isEqualTo(dollars(2 * (cents(shownPrice) + 100)));
            assertThat(database.queryLong("SELECT COUNT(*) FROM orders")).isEqualTo(ordersBefore);
            assertThat(stock(visitor, "EST-25")).isEqualTo(stockBefore);

            Page order = visitor.postRaw("/checkout/confirm", refused.hiddenFields("/checkout/confirm"));
            assertThat(order.path()).isEqualTo("/orders/view");
            assertThat(order.textOf("total")).as("placed at the price confirmed the second time")
                    .isEqualTo(dollars(2 * (cents(shownPrice) + 100)));
        } finally {
            database.execute("UPDATE item SET list_price = list_price - 1 WHERE item_id = 'EST-25'");
        }
    }

    @Test
    void anItemThatSoldOutSinceThePageWasShownIsRefusedOnTheCartPageNotAnErrorPage() {
        ShopClient visitor = visitor();
        visitor.get("/item?id=EST-27"); // in stock when shown
        database.execute("UPDATE item SET stock = 0 WHERE item_id = 'EST-27'");
        try {
            Page refused = visitor.post("/cart/add", "itemId", "EST-27");

            assertThat(refused.status()).isEqualTo(200);
            assertThat(refused.path()).isEqualTo("/cart/add");
            assertThat(refused.body()).contains("is out of stock").contains("id=\"cart-empty\"");
        } finally {
            database.execute("UPDATE item SET stock = 10000 WHERE item_id = 'EST-27'");
        }
    }

    @Test
    void anotherCustomersOrderIsNotFound() {
        ShopClient buyer = visitor();
        createAccount(buyer, freshUsername());
        buyer.post("/cart/add", "itemId", "EST-13");
        buyer.get("/checkout");
        buyer.post("/checkout", paymentFields(false));
        String orderId = orderIdOf(buyer.post("/checkout/confirm"));

        ShopClient other = visitor();
        other.signOn("ACID", "ACID");
        Page page = other.get("/orders/view?id=" + orderId);
        assertThat(page.status()).isEqualTo(404);
        assertThat(page.body()).contains("You have no order number " + orderId + ".");
    }

    // ---- errors and forgery ------------------------------------------------------------------------------

    @Test
    void badRequestsGetFriendlyErrorPagesWithoutStackTraces() {
        ShopClient visitor = visitor();
        assertError(visitor.get("/no-such-page"), 404, "We could not find that page.");
        assertError(visitor.get("/item?id=EST-999"), 404, "There is no item 'EST-999'.");
        assertError(visitor.get("/category?id=WHALES"), 404, "There is no category 'WHALES'.");
        assertError(visitor.get("/item"), 400, "The request is missing its 'id'.");
        assertError(visitor.get("/search?keywords=fish&page=abc"), 400, "'page' must be a whole number of at least 1.");
        assertError(visitor.get("/search?keywords=fish&page=9"), 400, "There is no page 9 of these results.");
        assertError(visitor.get("/signoff"), 405, "Sign off with the button at the top of the page.");
        visitor.signOn("ACID", "ACID");
        assertError(visitor.get("/orders/view?id=12x"), 400, "An order number is a whole number, not '12x'.");
    }

    @Test
    void errorPagesShowTheSignedOnCustomerAndTheirCart() {
        ShopClient visitor = visitor();
        visitor.signOn("ACID", "ACID");
        visitor.post("/cart/add", "itemId", "EST-2");
        Page[] errors = {
            visitor.get("/item?id=EST-999"), // the servlet's 404
            visitor.get("/no-such-page"), // the container's 404
            visitor.postRaw("/cart/add", "itemId", "EST-2", "_csrf", "forged"), // the anti-forgery filter's 403
        };
        for (Page page : errors) {
            assertThat(page.status()).as(page.toString()).isIn(403, 404);
            assertThat(page.body()).as(page.toString()).contains("id=\"sign-off\"").doesNotContain("id=\"sign-on\"");
            assertThat(page.textOf("cart-count")).as(page.toString()).isEqualTo("1");
            assertThat(page.hiddenFields("/signoff")).as("the sign-off button's form token on " + page)
                    .containsExactly("_csrf", visitor.token());
        }
    }

    @Test
    void postWithoutTheFormTokenIsRefused() {
        ShopClient visitor = visitor();
        visitor.get("/item?id=EST-1");
        Page page = visitor.postRaw("/cart/add", "itemId", "EST-1");
        assertError(page, 403, "This form has expired or did not come from this shop.");
        assertThat(visitor.postRaw("/cart/add", "itemId", "EST-1", "_csrf", "forged").status()).isEqualTo(403);
        assertThat(visitor.get("/cart").body()).contains("id=\"cart-empty\"");
    }

    @Test
    void signOnIssuesANewFormTokenSoATokenReadBeforeItIsRefusedAfterIt() {
        ShopClient visitor = visitor();
        visitor.get("/signon");
        String beforeSignOn = visitor.token(); // what someone who planted this session could have read

        visitor.post("/signon", "username", "ACID", "password", "ACID");

        assertThat(visitor.token()).isNotEqualTo(beforeSignOn);
        assertThat(visitor.postRaw("/cart/add", "itemId", "EST-1", "_csrf", beforeSignOn).status()).isEqualTo(403);
        assertThat(visitor.post("/cart/add", "itemId", "EST-1").path()).isEqualTo("/cart");
    }

    @Test
    void placingTheSameOrderFromTwoRequestsAtOncePlacesItOnce() throws Exception {
        ShopClient visitor = visitor();
        String[] placeOrder = newCustomerAtConfirmation(visitor, "EST-20");

        java.util.concurrent.ExecutorService clicks = java.util.concurrent.Executors.newFixedThreadPool(6);
        // the item's stock row stays locked while the clicks arrive, so an order being placed takes a while,
        // as it does under load: every click that gets as far as placing an order waits here
        try (java.sql.Connection stockLock = database.lockItemRow("EST-20")) {
            List<java.util.concurrent.Future<Page>> placed = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) { // a customer clicking "Place order" again and again
                placed.add(clicks.submit(() -> visitor.postRaw("/checkout/confirm", placeOrder)));
            }
            Thread.sleep(300); // within the database's lock timeout
            stockLock.rollback();
            for (java.util.concurrent.Future<Page> click : placed) {
                assertThat(click.get(30, java.util.concurrent.TimeUnit.SECONDS).status()).isEqualTo(200);
            }
        } finally {
            clicks.shutdownNow();
        }

        assertThat(visitor.get("/orders").all("/orders/view\\?id=(\\d+)").stream().distinct()).as("orders placed").hasSize(1);
    }

    @Test
    void whatAnotherTabAddsToTheCartWhileTheOrderIsBeingPlacedStaysInTheCart() throws Exception {
        ShopClient visitor = visitor();
        String[] placeOrder = newCustomerAtConfirmation(visitor, "EST-28");

        java.util.concurrent.ExecutorService tab = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (java.sql.Connection stockLock = database.lockItemRow("EST-28")) {
            java.util.concurrent.Future<Page> placing = tab.submit(() -> visitor.postRaw("/checkout/confirm", placeOrder));
            database.awaitSessionBlockedBy(stockLock); // the order is being placed: it read the cart and waits for the item's stock row
            assertThat(visitor.post("/cart/add", "itemId", "EST-6").path()).isEqualTo("/cart");
            stockLock.rollback();

            assertThat(placing.get(30, java.util.concurrent.TimeUnit.SECONDS).path()).isEqualTo("/orders/view");
        } finally {
            tab.shutdownNow();
        }
        Page cart = visitor.get("/cart");
        assertThat(cart.textOf("cart-count")).as("the item added meanwhile, not the one ordered").isEqualTo("1");
        assertThat(cart.textOf("cart")).contains("EST-6").doesNotContain("EST-28");
    }

    @Test
    void pagesEscapeWhatVisitorsType() {
        Page page = visitor().get("/search?keywords=%3Cscript%3Ealert(1)%3C/script%3E");
        assertThat(page.body()).doesNotContain("<script>").contains("&lt;script&gt;");
    }

    // ---- helpers ---------------------------------------------------------------------------------------------

    private static void assertError(Page page, int status, String detail) {
        assertThat(page.status()).as(page.toString()).isEqualTo(status);
        assertThat(page.textOf("error-detail")).contains(detail);
        assertThat(page.body()).doesNotContain("Exception").doesNotContain("at io.cohort").doesNotContain("jetty");
    }

    /** Signs {@code visitor} on as a new customer with {@code itemId} in the cart; the confirmation's "Place order" form. */
    private static String[] newCustomerAtConfirmation(ShopClient visitor, String itemId) {
        createAccount(visitor, freshUsername());
        visitor.post("/cart/add", "itemId", itemId);
        return visitor.post("/checkout", paymentFields(false)).hiddenFields("/checkout/confirm");
    }

    private static String freshUsername() {
        return "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static Page createAccount(ShopClient visitor, String username) {
        visitor.get("/account/new");
        return visitor.post("/account/new", accountFields(username, "Test", "secret-pw"));
    }

    private static String[] accountFields(String username, String firstName, String password) {
        return new String[] {"username", username, "password", password, "repeatedPassword", password,
            "email", username + "@example.com", "phone", "555-0199", "favouriteCategory", "BIRDS",
            "firstName", firstName, "lastName", "Tester", "address1", "1 Test Road", "address2", "",
            "city", "Testville", "state", "CA", "zip", "94000", "country", "USA"};
    }

    private static String[] paymentFields(boolean shipElsewhere) {
        String[] base = {"cardType", "Visa", "cardNumber", GOOD_CARD, "expiry", NEXT_YEARS_CARD_EXPIRY,
            "bill.firstName", "Test", "bill.lastName", "Tester", "bill.address1", "1 Test Road", "bill.address2", "",
            "bill.city", "Testville", "bill.state", "CA", "bill.zip", "94000", "bill.country", "USA"};
        if (!shipElsewhere) {
            return base;
        }
        String[] withShipping = Arrays.copyOf(base, base.length + 2);
        withShipping[base.length] = "shipElsewhere";
        withShipping[base.length + 1] = "on";
        return withShipping;
    }

    private static long cents(String dollars) {
        return new java.math.BigDecimal(dollars.replace("$", "").replace(",", "")).movePointRight(2).longValueExact();
    }

    private static String dollars(long cents) {
        return java.text.NumberFormat.getCurrencyInstance(java.util.Locale.US).format(java.math.BigDecimal.valueOf(cents, 2));
    }

    private static int stock(ShopClient visitor, String itemId) {
        String text = visitor.get("/item?id=" + itemId).textOf("stock");
        return Integer.parseInt(text.replace(" in stock", ""));
    }

    private static String orderIdOf(Page order) {
        Matcher m = Pattern.compile("data-order-id=\"(\\d+)\"").matcher(order.body());
        assertThat(m.find()).as("order id on " + order).isTrue();
        return m.group(1);
    }
}
