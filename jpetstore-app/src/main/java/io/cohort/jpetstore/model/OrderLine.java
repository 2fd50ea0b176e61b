package io.cohort.jpetstore.model;

import java.math.BigDecimal;

/** One line of a placed order, with the price charged. */
public record OrderLine(int lineNumber, String itemId, String description, int quantity, BigDecimal unitPrice) {
    public BigDecimal total() {
        return unitPrice.multiply(BigDecimal.valueOf(quantity));
    }
}
