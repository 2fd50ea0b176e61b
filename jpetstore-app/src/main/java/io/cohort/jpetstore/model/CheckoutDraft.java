package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.util.Objects;

/**
 * What the checkout wizard has collected so far, kept in the session as "checkout" between its steps
 * and removed once the order is placed. Immutable, like the cart.
 *
 * @param shipTo where to ship; the billing address unless the customer asked to ship elsewhere
 */
public record CheckoutDraft(PaymentDetails payment, Address billTo, boolean shipElsewhere, Address shipTo)
        implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    public CheckoutDraft {
        Objects.requireNonNull(payment, "payment");
        Objects.requireNonNull(billTo, "billTo");
        shipTo = shipTo == null ? billTo : shipTo;
    }

    public CheckoutDraft shippingTo(Address address) {
        return new CheckoutDraft(payment, billTo, shipElsewhere, address);
    }
}
