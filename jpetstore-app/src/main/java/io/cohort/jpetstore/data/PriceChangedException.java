package io.cohort.jpetstore.data;

import java.math.BigDecimal;
import java.util.Map;

/**
 * An order's cart shows another price for an item than the store's list price when the order was placed: the price
 * changed since the customer put the item in the cart (and confirmed the order at that price). Nothing of the order
 * was written; the customer is to confirm again at the current prices.
 */
public class PriceChangedException extends Exception {
    private final transient Map<String, BigDecimal> currentPrices;

    /** @param currentPrices the list price of every item whose price changed, by item id (at least one) */
    public PriceChangedException(Map<String, BigDecimal> currentPrices) {
        super("the list price changed of " + String.join(", ", currentPrices.keySet()));
        if (currentPrices.isEmpty()) {
            throw new IllegalArgumentException("a price change names at least one item");
        }
        this.currentPrices = Map.copyOf(currentPrices);
    }

    /** The list price of every item whose price changed, by item id. */
    public Map<String, BigDecimal> currentPrices() {
        return currentPrices;
    }
}
