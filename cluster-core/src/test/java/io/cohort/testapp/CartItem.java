package io.cohort.testapp;

import java.io.Serializable;

/**
 * A session value whose class the test application defines itself, in {@code WEB-INF/classes}: the
 * deserialization filter accepts it without an allow pattern.
 */
public record CartItem(String sku) implements Serializable {

    @Override
    public String toString() {
        return "CartItem(" + sku + ")";
    }
}
