package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Account;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a data set through batched inserts on one connection, inside the caller's transaction.
 * Batches run in foreign-key order (categories before products before items ...), so a full batch of
 * one table never reaches the database before the rows it refers to. Not thread-safe.
 */
final class CatalogWriter implements AutoCloseable {
    private static final int BATCH_SIZE = 1_000;

    private final Map<String, String> categoryNames = new HashMap<>();
    private final Batch categories;
    private final Batch products;
    private final Batch keywords;
    private final Batch items;
    private final Batch accounts;
    private final Batch benchmarkKeywords;
    private final List<Batch> inForeignKeyOrder;
    private int pending;

    CatalogWriter(Connection connection) throws SQLException {
        categories = new Batch(connection, "INSERT INTO category (category_id, name, description) VALUES (?, ?, ?)");
        products = new Batch(connection,
                "INSERT INTO product (product_id, category_id, name, description) VALUES (?, ?, ?, ?)");
        keywords = new Batch(connection, "INSERT INTO product_keyword (keyword, product_id) VALUES (?, ?)");
        items = new Batch(connection, "INSERT INTO item (item_id, product_id, attribute, list_price, unit_cost, stock)"
                + " VALUES (?, ?, ?, ?, ?, ?)");
        accounts = new Batch(connection, AccountDao.insertSql());
        benchmarkKeywords = new Batch(connection, "INSERT INTO benchmark_keyword (keyword) VALUES (?)");
        inForeignKeyOrder = List.of(categories, products, keywords, items, accounts, benchmarkKeywords);
    }

    void category(String id, String name, String description) throws SQLException {
        categoryNames.put(id, name);
        add(categories, id, name, description);
    }

    /** A product and its search keywords: those of its name and of its category's name. */
    void product(String id, String categoryId, String name, String description) throws SQLException {
        String categoryName = categoryNames.get(categoryId);
        if (categoryName == null) {
            throw new IllegalArgumentException("product " + id + " names unknown category " + categoryId);
        }
        add(products, id, categoryId, name, description);
        Set<String> terms = new LinkedHashSet<>(SearchTerms.of(name));
        terms.addAll(SearchTerms.of(categoryName));
        for (String term : terms) {
            add(keywords, term, id);
        }
    }

    void item(String id, String productId, String attribute, BigDecimal listPrice, BigDecimal unitCost, int stock)
            throws SQLException {
        add(items, id, productId, attribute, listPrice, unitCost, stock);
    }

    void account(Account account, String passwordHash) throws SQLException {
        AccountDao.bindInsert(accounts.statement, account, passwordHash);
        queued(accounts);
    }

    void benchmarkKeyword(String keyword) throws SQLException {
        add(benchmarkKeywords, keyword);
    }

    /** Sends every queued row, parents first. */
    void flush() throws SQLException {
        for (Batch b : inForeignKeyOrder) {
            b.execute();
        }
        pending = 0;
    }

    @Override
    public void close() throws SQLException {
        List<SQLException> failures = new ArrayList<>();
        try {
            flush();
        } finally {
            for (Batch b : inForeignKeyOrder) {
                try {
                    b.statement.close();
                } catch (SQLException e) {
                    failures.add(e);
                }
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
    }

    private void add(Batch batch, Object... values) throws SQLException {
        SqlRunner.bind(batch.statement, values);
        queued(batch);
    }

    private void queued(Batch batch) throws SQLException {
        batch.statement.addBatch();
        batch.size++;
        if (++pending >= BATCH_SIZE) {
            flush();
        }
    }

    private static final class Batch {
        final PreparedStatement statement;
        int size;

        Batch(Connection connection, String sql) throws SQLException {
            this.statement = connection.prepareStatement(sql);
        }

        void execute() throws SQLException {
            if (size > 0) {
                statement.executeBatch();
                statement.clearBatch();
                size = 0;
            }
        }
    }
}
