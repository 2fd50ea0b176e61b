package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Address;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CartLine;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.PaymentDetails;
import jakarta.servlet.http.HttpServletRequest;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;

/**
 * The hidden fields of the confirmation page's "Place order" form, which tie the submit to the page the customer saw:
 * <ul>
 *   <li>{@value #TOKEN}: the checkout's one-time {@link CheckoutDraft#orderToken() order token};</li>
 *   <li>{@value #FINGERPRINT}: a digest of everything the page showed, in two parts: the cart (items, descriptions,
 *       prices, quantities, total) and the details (card, addresses).</li>
 * </ul>
 * The order is placed only if both still match the session's draft and cart; else the customer sees the confirmation
 * again with what changed (another tab changed the cart, or went through the checkout again).
 */
final class ConfirmationForm {
    static final String TOKEN = "orderToken";
    static final String FINGERPRINT = "orderFingerprint";

    static final String CART_CHANGED = "Your cart changed since you confirmed; please check the order again.";
    static final String DETAILS_CHANGED =
            "Your payment or address details changed since you confirmed; please check the order again.";
    static final String OUT_OF_DATE = "This confirmation is out of date; please check the order again.";

    private ConfirmationForm() {
    }

    /** What the confirmation page of this draft and cart carries in {@value #FINGERPRINT}. */
    static String fingerprint(CheckoutDraft draft, Cart cart) {
        return digest(cartText(cart)) + "." + digest(detailsText(draft));
    }

    /** The posted order token, if it is one. */
    static Optional<String> postedToken(HttpServletRequest request) {
        return Optional.ofNullable(request.getParameter(TOKEN)).filter(CheckoutDraft::isWellFormedToken);
    }

    /** Why the request does not post the confirmation of this draft and cart, as a message for the customer. */
    static Optional<String> mismatch(HttpServletRequest request, CheckoutDraft draft, Cart cart) {
        String posted = request.getParameter(FINGERPRINT);
        if (!draft.orderToken().equals(request.getParameter(TOKEN)) || posted == null) {
            return Optional.of(OUT_OF_DATE);
        }
        String[] current = fingerprint(draft, cart).split("\\.");
        String[] confirmed = posted.split("\\.", -1);
        if (confirmed.length != 2) {
            return Optional.of(OUT_OF_DATE);
        }
        if (!current[0].equals(confirmed[0])) {
            return Optional.of(CART_CHANGED);
        }
        if (!current[1].equals(confirmed[1])) {
            return Optional.of(DETAILS_CHANGED);
        }
        return Optional.empty();
    }

    private static String cartText(Cart cart) {
        StringBuilder text = new StringBuilder();
        for (CartLine line : cart.lines()) {
            append(text, line.itemId(), line.productId(), line.description(), amount(line.unitPrice()),
                    Integer.toString(line.quantity()));
        }
        append(text, amount(cart.subtotal()));
        return text.toString();
    }

    private static String detailsText(CheckoutDraft draft) {
        StringBuilder text = new StringBuilder();
        PaymentDetails payment = draft.payment();
        append(text, payment.cardType(), payment.maskedNumber(), payment.expiry());
        append(text, draft.billTo());
        append(text, Boolean.toString(draft.shipElsewhere()));
        append(text, draft.shipTo());
        return text.toString();
    }

    private static void append(StringBuilder text, Address a) {
        append(text, a.firstName(), a.lastName(), a.line1(), a.line2(), a.city(), a.state(), a.zip(), a.country());
    }

    /** Each value with its length first, so that no two different lists of values read the same. */
    private static void append(StringBuilder text, String... values) {
        for (String value : values) {
            String v = value == null ? "" : value;
            text.append(v.length()).append(':').append(v).append(';');
        }
    }

    private static String amount(BigDecimal value) {
        return value.stripTrailingZeros().toPlainString();
    }

    private static String digest(String text) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(hash, 16));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
