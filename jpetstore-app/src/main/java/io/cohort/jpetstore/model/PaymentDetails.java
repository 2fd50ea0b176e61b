package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;

/**
 * How an order is paid. Only the masked card number ("**** 1111") is ever kept, in the session or the database.
 *
 * @param expiry as entered, MM/YYYY
 */
public record PaymentDetails(String cardType, String maskedNumber, String expiry) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
}
