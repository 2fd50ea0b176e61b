package io.cohort.jpetstore.model;

import java.io.Serial;
import java.io.Serializable;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * What the checkout wizard has collected so far, kept in the session as "checkout" between its steps
 * and removed once the order is placed. Immutable, like the cart.
 *
 * @param shipTo     where to ship; the billing address unless the customer asked to ship elsewhere
 * @param orderToken this checkout's one-time order token (random, unguessable): the order placed from it is stored
 *                   under it, and the database holds at most one order per token, so submitting the confirmation
 *                   again places no second order (see {@code OrderDao.place}). It stays the same through the steps,
 *                   also when the customer goes back and changes details, until the draft is done with. A draft
 *                   without one (a session written before there were tokens) gets a fresh one.
 */
public record CheckoutDraft(PaymentDetails payment, Address billTo, boolean shipElsewhere, Address shipTo,
                            String orderToken) implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;

    /** Most characters of a token, ours (32) or another's: the size of {@code orders.order_token}. */
    public static final int MAX_TOKEN_LENGTH = 64;
    private static final SecureRandom RANDOM = new SecureRandom();

    public CheckoutDraft {
        Objects.requireNonNull(payment, "payment");
        Objects.requireNonNull(billTo, "billTo");
        shipTo = shipTo == null ? billTo : shipTo;
        orderToken = orderToken == null ? newOrderToken() : orderToken;
        if (!isWellFormedToken(orderToken)) {
            throw new IllegalArgumentException("not an order token: " + orderToken);
        }
    }

    /** A new checkout, with a new order token. */
    public CheckoutDraft(PaymentDetails payment, Address billTo, boolean shipElsewhere, Address shipTo) {
        this(payment, billTo, shipElsewhere, shipTo, null);
    }

    public CheckoutDraft shippingTo(Address address) {
        return new CheckoutDraft(payment, billTo, shipElsewhere, address, orderToken);
    }

    /** True for a string that can be an order token: 16 to 64 URL-safe Base64 characters. */
    public static boolean isWellFormedToken(String token) {
        return token != null && token.length() >= 16 && token.length() <= MAX_TOKEN_LENGTH
                && token.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                        || c == '-' || c == '_');
    }

    private static String newOrderToken() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
