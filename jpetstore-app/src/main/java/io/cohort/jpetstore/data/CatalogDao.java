package io.cohort.jpetstore.data;

import io.cohort.jpetstore.model.Category;
import io.cohort.jpetstore.model.Item;
import io.cohort.jpetstore.model.Product;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** Reads categories, products and items. Thread-safe; every call borrows its own connection. */
public final class CatalogDao {
    private static final String ITEM_COLUMNS = "SELECT i.item_id, i.product_id, p.name, p.category_id, i.attribute,"
            + " i.list_price, i.stock FROM item i JOIN product p ON p.product_id = i.product_id";

    private final SqlRunner sql;

    public CatalogDao(DataSource dataSource) {
        this.sql = new SqlRunner(dataSource);
    }

    public List<Category> categories() {
        return sql.list("SELECT category_id, name, description FROM category ORDER BY name", CatalogDao::category);
    }

    public Optional<Category> category(String id) {
        return sql.optional("SELECT category_id, name, description FROM category WHERE category_id = ?",
                CatalogDao::category, id);
    }

    public List<Product> productsIn(String categoryId) {
        return sql.list("SELECT product_id, category_id, name, description FROM product WHERE category_id = ?"
                + " ORDER BY name, product_id", CatalogDao::product, categoryId);
    }

    public Optional<Product> product(String id) {
        return sql.optional("SELECT product_id, category_id, name, description FROM product WHERE product_id = ?",
                CatalogDao::product, id);
    }

    public List<Item> itemsOf(String productId) {
        return sql.list(ITEM_COLUMNS + " WHERE i.product_id = ? ORDER BY i.item_id", CatalogDao::item, productId);
    }

    public Optional<Item> item(String id) {
        return sql.optional(ITEM_COLUMNS + " WHERE i.item_id = ?", CatalogDao::item, id);
    }

    private static Category category(ResultSet rs) throws SQLException {
        return new Category(rs.getString(1), rs.getString(2), rs.getString(3));
    }

    private static Product product(ResultSet rs) throws SQLException {
        return new Product(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4));
    }

    private static Item item(ResultSet rs) throws SQLException {
        return new Item(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                rs.getBigDecimal(6), rs.getInt(7));
    }
}
