package io.cohort.jpetstore.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.jpetstore.model.Address;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.Item;
import io.cohort.jpetstore.model.Order;
import io.cohort.jpetstore.model.PaymentDetails;
import io.cohort.jpetstore.testing.TestDatabase;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The data layer against a real database: loading (also by several nodes at once), search, accounts and the
 * order transaction. A contract that each database runs through a thin subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractDatabaseTest {
    private static final Address ADDRESS = new Address("Ann", "Buyer", "1 Road", "", "Town", "CA", "94000", "USA");
    private static final PaymentDetails PAYMENT = new PaymentDetails("Visa", "**** 1111", "12/2030");

    private TestDatabase database;
    private CatalogDao catalog;
    private OrderDao orders;

    protected abstract TestDatabase openDatabase();

    @BeforeAll
    void loadStandardDataSet() {
        database = openDatabase();
        new DatabaseInitializer(database.dataSource(), DataSetChoice.standard()).ensureLoaded();
        catalog = new CatalogDao(database.dataSource());
        orders = new OrderDao(database.dataSource());
    }

    @AfterAll
    void closeDatabase() {
        if (database != null) {
            database.close();
        }
    }

    @Test
    void nodesStartingTogetherLoadTheDataSetExactlyOnce() throws Exception {
        int nodes = 4;
        try (TestDatabase fresh = openDatabase()) {
            CountDownLatch start = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(nodes);
            try {
                List<Future<LoadedDataSet>> results = new ArrayList<>();
                for (int i = 0; i < nodes; i++) {
                    Callable<LoadedDataSet> node = () -> {
                        start.await();
                        return new DatabaseInitializer(fresh.dataSource(), DataSetChoice.standard()).ensureLoaded();
                    };
                    results.add(pool.submit(node));
                }
                start.countDown();
                int loaders = 0;
                for (Future<LoadedDataSet> result : results) {
                    LoadedDataSet loaded = result.get(60, TimeUnit.SECONDS);
                    assertThat(loaded.kind()).isEqualTo("standard");
                    loaders += loaded.loadedHere() ? 1 : 0;
                }
                assertThat(loaders).isEqualTo(1);
            } finally {
                pool.shutdownNow();
            }
            assertStandardCounts(fresh);
        }
    }

    @Test
    void theStandardDataSetHasFiveCategoriesSixteenProductsAndTwentyEightItems() {
        assertStandardCounts(database);
        assertThat(catalog.categories()).extracting(c -> c.id())
                .containsExactlyInAnyOrder("FISH", "DOGS", "REPTILES", "CATS", "BIRDS");
        for (int i = 1; i <= 28; i++) {
            assertThat(catalog.item("EST-" + i)).as("EST-" + i).isPresent();
        }
        Item item = catalog.item("EST-1").orElseThrow();
        assertThat(item.productName()).isEqualTo("Angelfish");
        assertThat(item.listPrice()).isEqualByComparingTo("16.50");
    }

    @Test
    void aLoadedDataSetIsKeptWhenTheSettingsAskForAnother() {
        LoadedDataSet again = new DatabaseInitializer(database.dataSource(), DataSetChoice.benchmark(10, 10))
                .ensureLoaded();
        assertThat(again.kind()).isEqualTo("standard");
        assertThat(again.loadedHere()).isFalse();
        assertThat(database.queryLong("SELECT COUNT(*) FROM product")).isEqualTo(16);
    }

    @Test
    void passwordsAreStoredAsHashesAndChecked() {
        AccountDao accounts = new AccountDao(database.dataSource());
        assertThat(accounts.authenticate("j2ee", "j2ee")).hasValueSatisfying(a -> {
            assertThat(a.address().firstName()).isEqualTo("Jean");
            assertThat(a.favouriteCategoryId()).isEqualTo("DOGS");
        });
        assertThat(accounts.authenticate("ACID", "ACID")).isPresent();
        assertThat(accounts.authenticate("j2ee", "J2EE")).isEmpty();
        assertThat(accounts.authenticate("nobody", "j2ee")).isEmpty();
        assertThat(database.queryLong("SELECT COUNT(*) FROM account WHERE password_hash LIKE 'pbkdf2-sha256:%'"))
                .isEqualTo(2);
    }

    @Test
    void searchLooksUpTheKeywordTable() {
        ProductSearch search = new ProductSearch(database.dataSource());
        assertThat(search.search("fish", 100)).hasSize(4);
        assertThat(search.search("Retrievers", 100)).extracting(p -> p.id()).containsExactly("K9-RT-01", "K9-RT-02");
        assertThat(search.search("dog cat", 100)).hasSize(8);
        assertThat(search.search("dog cat", 3)).hasSize(3);
        assertThat(search.search("  ", 100)).isEmpty();
        assertThat(search.benchmarkKeywords()).contains("angelfish", "koi", "retriever");
    }

    @Test
    void placingAnOrderTakesStockAndWritesTheOrderWithItsLines() throws Exception {
        int before7 = catalog.item("EST-7").orElseThrow().stock();
        Cart cart = Cart.empty().add(catalog.item("EST-7").orElseThrow()).add(catalog.item("EST-8").orElseThrow())
                .withQuantity("EST-7", 3);
        long id = orders.place("j2ee", draft(), cart).orderId();

        assertThat(catalog.item("EST-7").orElseThrow().stock()).isEqualTo(before7 - 3);
        Order order = orders.find(id, "j2ee").orElseThrow();
        assertThat(order.total()).isEqualByComparingTo("74.00");
        assertThat(order.lines()).extracting(l -> l.itemId() + " x" + l.quantity()).containsExactly("EST-7 x3", "EST-8 x1");
        assertThat(order.shipTo()).isEqualTo(ADDRESS);
        assertThat(orders.historyOf("j2ee")).anySatisfy(s -> assertThat(s.id()).isEqualTo(id));
        assertThat(orders.find(id, "ACID")).isEmpty();
    }

    @Test
    void anOrderThatRunsOutOfStockWritesNothing() {
        database.execute("UPDATE item SET stock = 1 WHERE item_id = 'EST-12'");
        int before11 = catalog.item("EST-11").orElseThrow().stock();
        long ordersBefore = database.queryLong("SELECT COUNT(*) FROM orders");
        Cart cart = Cart.empty().add(catalog.item("EST-11").orElseThrow()).add(catalog.item("EST-12").orElseThrow())
                .withQuantity("EST-12", 2);

        assertThatThrownBy(() -> orders.place("j2ee", draft(), cart))
                .isInstanceOfSatisfying(OutOfStockException.class, e -> {
                    assertThat(e.itemId()).isEqualTo("EST-12");
                    assertThat(e.available()).isEqualTo(1);
                });
        assertThat(catalog.item("EST-11").orElseThrow().stock()).isEqualTo(before11);
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders")).isEqualTo(ordersBefore);
    }

    @Test
    void anOrderWhoseListPriceChangedSinceItWentIntoTheCartWritesNothing() throws Exception {
        Cart cart = Cart.empty().add(catalog.item("EST-13").orElseThrow()).add(catalog.item("EST-14").orElseThrow());
        BigDecimal inCart = cart.line("EST-14").orElseThrow().unitPrice();
        int before13 = catalog.item("EST-13").orElseThrow().stock();
        long ordersBefore = database.queryLong("SELECT COUNT(*) FROM orders");
        database.execute("UPDATE item SET list_price = list_price + 2 WHERE item_id = 'EST-14'");
        try {
            assertThatThrownBy(() -> orders.place("j2ee", draft(), cart))
                    .isInstanceOfSatisfying(PriceChangedException.class, e -> assertThat(e.currentPrices())
                            .containsOnlyKeys("EST-14").hasEntrySatisfying("EST-14", p -> assertThat(p)
                                    .isEqualByComparingTo(inCart.add(BigDecimal.valueOf(2)))));
            assertThat(catalog.item("EST-13").orElseThrow().stock()).isEqualTo(before13);
            assertThat(database.queryLong("SELECT COUNT(*) FROM orders")).isEqualTo(ordersBefore);

            long id = orders.place("j2ee", draft(), cart.withPrices(Map.of("EST-14", inCart.add(BigDecimal.valueOf(2)))))
                    .orderId();
            assertThat(orders.find(id, "j2ee").orElseThrow().total())
                    .isEqualByComparingTo(cart.subtotal().add(BigDecimal.valueOf(2)));
        } finally {
            database.execute("UPDATE item SET list_price = list_price - 2 WHERE item_id = 'EST-14'");
        }
    }

    @Test
    void concurrentOrdersNeverSellMoreThanTheStock() throws Exception {
        database.execute("UPDATE item SET stock = 5 WHERE item_id = 'EST-27'");
        Cart cart = Cart.empty().add(catalog.item("EST-27").orElseThrow());
        int buyers = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(buyers);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < buyers; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        orders.place("ACID", draft(), cart);
                        return true;
                    } catch (OutOfStockException e) {
                        return false;
                    }
                }));
            }
            start.countDown();
            int sold = 0;
            for (Future<Boolean> result : results) {
                sold += result.get(30, TimeUnit.SECONDS) ? 1 : 0;
            }
            assertThat(sold).isEqualTo(5);
            assertThat(catalog.item("EST-27").orElseThrow().stock()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anOrderTokenPlacesOneOrderHoweverOftenItIsPlaced() throws Exception {
        Cart cart = Cart.empty().add(catalog.item("EST-9").orElseThrow()).withQuantity("EST-9", 2);
        CheckoutDraft draft = draft();
        int stockBefore = catalog.item("EST-9").orElseThrow().stock();

        OrderDao.Placement first = orders.place("j2ee", draft, cart);
        OrderDao.Placement again = orders.place("j2ee", draft, cart);

        assertThat(first.placedNow()).isTrue();
        assertThat(again).isEqualTo(new OrderDao.Placement(first.orderId(), false));
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE order_token = '" + draft.orderToken() + "'"))
                .isEqualTo(1);
        assertThat(catalog.item("EST-9").orElseThrow().stock()).as("taken once").isEqualTo(stockBefore - 2);
        assertThat(orders.placedWith(draft.orderToken(), "j2ee")).contains(first.orderId());
        assertThat(orders.placedWith(draft.orderToken(), "ACID")).as("only to its own customer").isEmpty();
        assertThatThrownBy(() -> orders.place("ACID", draft, cart)).isInstanceOf(DataAccessException.class);
    }

    @Test
    void anOrderTokenSubmittedFromSeveralNodesAtOncePlacesOneOrder() throws Exception {
        Cart cart = Cart.empty().add(catalog.item("EST-10").orElseThrow());
        CheckoutDraft draft = draft();
        int nodes = 4;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(nodes);
        try {
            List<Future<OrderDao.Placement>> results = new ArrayList<>();
            for (int i = 0; i < nodes; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return orders.place("j2ee", draft, cart);
                }));
            }
            start.countDown();
            List<OrderDao.Placement> placements = new ArrayList<>();
            for (Future<OrderDao.Placement> result : results) {
                placements.add(result.get(60, TimeUnit.SECONDS));
            }
            assertThat(placements).extracting(OrderDao.Placement::orderId).containsOnly(placements.get(0).orderId());
            assertThat(placements).filteredOn(OrderDao.Placement::placedNow).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(database.queryLong("SELECT COUNT(*) FROM orders WHERE order_token = '" + draft.orderToken() + "'"))
                .isEqualTo(1);
    }

    @Test
    void aDatabaseOfThePreviousVersionIsUpgradedAndKeepsItsOrders() throws Exception {
        try (TestDatabase old = openDatabase()) {
            Schema.statements("schema-before-order-tokens.sql").forEach(old::execute);
            old.execute("INSERT INTO account (username, password_hash, email, phone, first_name, last_name, address1,"
                    + " address2, city, state, zip, country, created_at) VALUES ('old', 'x', 'old@example.com', '1',"
                    + " 'Old', 'Customer', '1 Road', '', 'Town', 'CA', '94000', 'USA', CURRENT_TIMESTAMP)");
            String address = "'Old', 'Customer', '1 Road', '', 'Town', 'CA', '94000', 'USA'";
            for (int i = 0; i < 2; i++) {
                old.execute("INSERT INTO orders (username, placed_at, card_type, card_masked, card_expiry, total,"
                        + " bill_first_name, bill_last_name, bill_address1, bill_address2, bill_city, bill_state, bill_zip,"
                        + " bill_country, ship_first_name, ship_last_name, ship_address1, ship_address2, ship_city,"
                        + " ship_state, ship_zip, ship_country) VALUES ('old', CURRENT_TIMESTAMP, 'Visa', '**** 1111',"
                        + " '12/2030', 0, " + address + ", " + address + ")");
            }

            new DatabaseInitializer(old.dataSource(), DataSetChoice.standard()).ensureLoaded();
            new DatabaseInitializer(old.dataSource(), DataSetChoice.standard()).ensureLoaded(); // the next node

            assertThat(old.queryLong("SELECT COUNT(*) FROM orders WHERE order_token IS NULL")).isEqualTo(2);
            OrderDao upgraded = new OrderDao(old.dataSource());
            Cart cart = Cart.empty().add(new CatalogDao(old.dataSource()).item("EST-1").orElseThrow());
            CheckoutDraft draft = draft();
            long id = upgraded.place("j2ee", draft, cart).orderId();
            assertThat(upgraded.place("j2ee", draft, cart)).isEqualTo(new OrderDao.Placement(id, false));
            assertThat(upgraded.place("j2ee", draft(), cart).placedNow()).isTrue();
            assertThat(old.queryLong("SELECT COUNT(*) FROM orders")).isEqualTo(4);
        }
    }

    @Test
    void theBenchmarkDataSetSearchesAverageAboutOneHundredProductsPerKeyword() {
        try (TestDatabase fresh = openDatabase()) {
            LoadedDataSet loaded = new DatabaseInitializer(fresh.dataSource(), DataSetChoice.benchmark(50, 1_000))
                    .ensureLoaded();
            assertThat(loaded.kind()).isEqualTo("benchmark");
            assertThat(fresh.queryLong("SELECT COUNT(*) FROM product")).isEqualTo(16 + 1_000);
            assertThat(fresh.queryLong("SELECT COUNT(*) FROM item")).isEqualTo(28 + 2_000);
            assertThat(fresh.queryLong("SELECT COUNT(*) FROM account")).isEqualTo(2 + 50);
            ProductSearch search = new ProductSearch(fresh.dataSource());
            SearchStatistics stats = SearchStatistics.measure(search, search.benchmarkKeywords());
            assertThat(stats.searches()).isEqualTo(BenchmarkDataSet.vocabularySize(1_000));
            assertThat(stats.mean()).isBetween(80.0, 120.0);
            assertThat(new AccountDao(fresh.dataSource()).authenticate("user49", BenchmarkDataSet.PASSWORD)).isPresent();
        }
    }

    /** A new checkout: each has an order token of its own. */
    private static CheckoutDraft draft() {
        return new CheckoutDraft(PAYMENT, ADDRESS, false, null);
    }

    private static void assertStandardCounts(TestDatabase db) {
        assertThat(db.queryLong("SELECT COUNT(*) FROM category")).isEqualTo(5);
        assertThat(db.queryLong("SELECT COUNT(*) FROM product")).isEqualTo(16);
        assertThat(db.queryLong("SELECT COUNT(*) FROM item")).isEqualTo(28);
        assertThat(db.queryLong("SELECT COUNT(*) FROM account")).isEqualTo(2);
        assertThat(db.queryLong("SELECT COUNT(*) FROM jpetstore_dataset")).isEqualTo(1);
    }
}
