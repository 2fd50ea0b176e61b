package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.math.BigDecimal;
import java.util.Objects;

/** One item in the cart with the quantity wanted and the unit price shown when it was added. */
public record CartLine(String itemId, String productId, String description, BigDecimal unitPrice, int quantity)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public CartLine {
        Objects.requireNonNull(itemId, "itemId");
        Objects.requireNonNull(unitPrice, "unitPrice");
        if (quantity < 1 || quantity > Cart.MAX_QUANTITY) {
            throw new IllegalArgumentException("quantity must be 1.." + Cart.MAX_QUANTITY + ": " + quantity);
        }
    }

    public BigDecimal total() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }

    CartLine withQuantity(int newQuantity) {
        return new CartLine(itemId, productId, description, unitPrice, newQuantity);
    }

    CartLine withUnitPrice(BigDecimal newPrice) {
        return new CartLine(itemId, productId, description, newPrice, quantity);
    }
}
