package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * A sellable variant of a product ("Adult Male", "Spotted") with its price and the stock read at the time.
 * Kept in the session as the "viewedItem" attribute; the stock there is a snapshot for display only.
 */
public record Item(String id, String productId, String productName, String categoryId, String attribute,
                   BigDecimal listPrice, int stock) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public Item {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(productId, "productId");
        Objects.requireNonNull(productName, "productName");
        Objects.requireNonNull(listPrice, "listPrice");
        attribute = attribute == null ? "" : attribute;
    }

    public boolean inStock() {
        return stock > 0;
    }

    /** "Adult Male Bulldog", or just the product name when the item has no attribute. */
    public String displayName() {
        return attribute.isEmpty() ? productName : attribute + " " + productName;
    }
}
