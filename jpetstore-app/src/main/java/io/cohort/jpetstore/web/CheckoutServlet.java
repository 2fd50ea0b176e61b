package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.OrderDao;
import io.cohort.jpetstore.data.OutOfStockException;
import io.cohort.jpetstore.data.PriceChangedException;
import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CartLine;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.Order;
import io.cohort.jpetstore.model.PaymentDetails;
import io.cohort.jpetstore.web.form.AddressForm;
import io.cohort.jpetstore.web.form.Form;
import io.cohort.jpetstore.web.form.PaymentForm;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.math.BigDecimal;
import java.text.NumberFormat;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The checkout wizard, for a signed-on customer with a non-empty cart:
 * {@code /checkout} (payment and billing address, and whether to ship elsewhere) → {@code /checkout/shipping}
 * (only if asked) → {@code /checkout/confirm}, whose POST places the order in one transaction.
 * The steps' answers are kept in the session as a {@link CheckoutDraft}.
 *
 * <p>The order placed is the one confirmed: the confirmation's form carries the draft's order token and a
 * fingerprint of what the page showed ({@link ConfirmationForm}); if the cart or the details changed since (another
 * tab), the confirmation is shown again and nothing is placed. And it is placed once: a submit whose token already
 * placed an order shows that order, whatever the session remembers.
 */
public final class CheckoutServlet extends ShopServlet {
    static final String BILL = "bill";
    static final String SHIP = "ship";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        ShopSession session = ShopSession.of(request);
        if (session.cart().isEmpty()) {
            Pages.redirect(request, response, "/cart");
            return;
        }
        Optional<CheckoutDraft> draft = session.checkout();
        String step = step(request);
        if (step.equals("payment") && showOrderOfDraftPlacedEarlier(request, response, session)) {
            return;
        }
        if (!step.equals("payment") && draft.isEmpty()) {
            Pages.redirect(request, response, "/checkout");
            return;
        }
        switch (step) {
            case "payment" -> showPayment(request, response, Form.of(paymentValues(draft, signedOn(session))));
            case "shipping" -> showShipping(request, response,
                    Form.of(AddressForm.values(draft.get().shipTo(), SHIP)));
            default -> showConfirm(request, response, draft.get(), session.cart());
        }
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        ShopSession session = ShopSession.of(request);
        String step = step(request);
        if (step.equals("confirm") && showOrderPlacedEarlier(request, response, session)) {
            return;
        }
        if (session.cart().isEmpty()) {
            Pages.redirect(request, response, "/cart");
            return;
        }
        if (step.equals("payment")) {
            if (!showOrderOfDraftPlacedEarlier(request, response, session)) {
                postPayment(request, response, session);
            }
            return;
        }
        Optional<CheckoutDraft> draft = session.checkout();
        if (draft.isEmpty()) {
            Pages.redirect(request, response, "/checkout");
            return;
        }
        if (step.equals("shipping")) {
            postShipping(request, response, session, draft.get());
        } else {
            placeOrder(request, response, session, draft.get());
        }
    }

    private static void postPayment(HttpServletRequest request, HttpServletResponse response, ShopSession session)
            throws ServletException, IOException {
        List<String> fields = new ArrayList<>(PaymentForm.FIELDS);
        fields.addAll(AddressForm.fields(BILL));
        fields.add("shipElsewhere");
        Form form = Form.read(request, fields);
        PaymentDetails payment = PaymentForm.validate(form, YearMonth.now());
        Address billTo = AddressForm.validate(form, BILL);
        if (!form.isValid()) {
            showPayment(request, response, form);
            return;
        }
        boolean shipElsewhere = !form.value("shipElsewhere").isEmpty();
        Optional<CheckoutDraft> earlier = session.checkout();
        Address shipTo = earlier.filter(d -> shipElsewhere && d.shipElsewhere())
                .map(CheckoutDraft::shipTo).orElse(billTo);
        // the same checkout keeps its order token when the customer goes back and changes details
        session.saveCheckout(new CheckoutDraft(payment, billTo, shipElsewhere, shipTo,
                earlier.map(CheckoutDraft::orderToken).orElse(null)));
        Pages.redirect(request, response, shipElsewhere ? "/checkout/shipping" : "/checkout/confirm");
    }

    private static void postShipping(HttpServletRequest request, HttpServletResponse response, ShopSession session,
                                     CheckoutDraft draft) throws ServletException, IOException {
        Form form = Form.read(request, AddressForm.fields(SHIP));
        Address shipTo = AddressForm.validate(form, SHIP);
        if (!form.isValid()) {
            showShipping(request, response, form);
            return;
        }
        session.saveCheckout(draft.shippingTo(shipTo));
        Pages.redirect(request, response, "/checkout/confirm");
    }

    /**
     * If the posted confirmation's order token placed an order of this customer already, shows that order: the
     * session may not know (its state was restored from a copy made before that submit, or the submit failed after
     * its commit). Its checkout is then done with, and so are the ordered items in its cart.
     */
    private static boolean showOrderPlacedEarlier(HttpServletRequest request, HttpServletResponse response,
                                                  ShopSession session) throws IOException {
        Optional<String> token = ConfirmationForm.postedToken(request);
        return token.isPresent() && showOrderPlacedEarlier(request, response, session, token.get());
    }

    /**
     * If the session's checkout draft placed an order already, shows that order: the session was restored from a copy
     * made before the order was placed, and the customer starts the checkout again. Its items are taken out of the
     * cart (they are ordered), the rest stays for a new checkout, with a new order token.
     */
    private static boolean showOrderOfDraftPlacedEarlier(HttpServletRequest request, HttpServletResponse response,
                                                         ShopSession session) throws IOException {
        Optional<CheckoutDraft> draft = session.checkout();
        return draft.isPresent() && showOrderPlacedEarlier(request, response, session, draft.get().orderToken());
    }

    private static boolean showOrderPlacedEarlier(HttpServletRequest request, HttpServletResponse response,
                                                  ShopSession session, String orderToken) throws IOException {
        Optional<Long> orderId = Shop.of(request).orders().placedWith(orderToken, signedOn(session).username());
        if (orderId.isEmpty()) {
            return false;
        }
        session.orderPlacedEarlier(orderToken, orderedIn(request, session, orderId.get()));
        Pages.redirect(request, response, "/orders/view?id=" + orderId.get(), Notice.ORDER_ALREADY_PLACED);
        return true;
    }

    /** What the signed-on customer's order {@code orderId} holds: quantities by item id. */
    private static Map<String, Integer> orderedIn(HttpServletRequest request, ShopSession session, long orderId) {
        return Shop.of(request).orders().find(orderId, signedOn(session).username()).map(Order::quantities)
                .orElse(Map.of());
    }

    private static void placeOrder(HttpServletRequest request, HttpServletResponse response, ShopSession session,
                                   CheckoutDraft draft) throws ServletException, IOException {
        Cart cart = session.cart(); // what is placed below, whatever another request does to the session meanwhile
        Optional<String> mismatch = ConfirmationForm.mismatch(request, draft, cart);
        if (mismatch.isPresent()) {
            request.setAttribute("error", mismatch.get());
            showConfirm(request, response, draft, cart);
            return;
        }
        if (!session.claimCheckout(draft)) { // another request of this session is placing this order
            Pages.redirect(request, response, "/orders");
            return;
        }
        OrderDao.Placement placed;
        try {
            placed = Shop.of(request).orders().place(signedOn(session).username(), draft, cart);
        } catch (RuntimeException e) {
            session.saveCheckout(draft); // not placed: the customer may try again
            throw e;
        } catch (OutOfStockException e) {
            session.saveCheckout(draft);
            String description = cart.line(e.itemId()).map(l -> l.description()).orElse(e.itemId());
            request.setAttribute("error", "Sorry, only " + e.available() + " of " + description + " (" + e.itemId()
                    + ") are left. Please lower the quantity in your cart.");
            showConfirm(request, response, draft, cart);
            return;
        } catch (PriceChangedException e) {
            session.saveCheckout(draft);
            // the customer confirms again, at the prices the order would be placed at
            Cart repriced = session.changeCart(current -> Optional.of(current.withPrices(e.currentPrices())))
                    .orElseThrow();
            request.setAttribute("error", priceChangeMessage(cart, e));
            showConfirm(request, response, draft, repriced);
            return;
        }
        // an order its token placed before holds what was confirmed then, which need not be what the cart holds now
        session.orderPlaced(placed.placedNow() ? cart.quantities() : orderedIn(request, session, placed.orderId()));
        Pages.redirect(request, response, "/orders/view?id=" + placed.orderId(),
                placed.placedNow() ? Notice.ORDER_PLACED : Notice.ORDER_ALREADY_PLACED);
    }

    /** "The price of Adult Male Chihuahua (EST-26) changed from $125.50 to $130.00, …; please check the order again." */
    static String priceChangeMessage(Cart cart, PriceChangedException change) {
        List<String> changes = new ArrayList<>();
        for (CartLine line : cart.lines()) {
            BigDecimal now = change.currentPrices().get(line.itemId());
            if (now != null) {
                changes.add(line.description() + " (" + line.itemId() + ") changed from " + dollars(line.unitPrice())
                        + " to " + dollars(now));
            }
        }
        boolean one = changes.size() == 1;
        return (one ? "The price of " : "The prices of ") + String.join(", ", changes) + " since you put "
                + (one ? "it" : "them") + " in your cart; please check the order again.";
    }

    private static String dollars(BigDecimal amount) {
        return NumberFormat.getCurrencyInstance(Locale.US).format(amount);
    }

    private static String step(HttpServletRequest request) {
        String path = request.getPathInfo() == null ? "/" : request.getPathInfo();
        return switch (path) {
            case "/" -> "payment";
            case "/shipping" -> "shipping";
            case "/confirm" -> "confirm";
            default -> throw ClientErrorException.notFound("There is no such checkout step.");
        };
    }

    private static Map<String, String> paymentValues(Optional<CheckoutDraft> draft, Account account) {
        Map<String, String> values = new LinkedHashMap<>();
        if (draft.isPresent()) {
            values.putAll(PaymentForm.values(draft.get().payment()));
            values.putAll(AddressForm.values(draft.get().billTo(), BILL));
            values.put("shipElsewhere", draft.get().shipElsewhere() ? "on" : "");
        } else {
            values.putAll(AddressForm.values(account.address(), BILL));
        }
        return values;
    }

    private static Account signedOn(ShopSession session) {
        return session.account()
                .orElseThrow(() -> new IllegalStateException("SignOnRequiredFilter is not mapped to /checkout"));
    }

    private static void showPayment(HttpServletRequest request, HttpServletResponse response, Form form)
            throws ServletException, IOException {
        request.setAttribute("form", form);
        request.setAttribute("cardTypes", PaymentForm.CARD_TYPES);
        request.setAttribute("cart", ShopSession.of(request).cart());
        Pages.render(request, response, "checkout-payment");
    }

    private static void showShipping(HttpServletRequest request, HttpServletResponse response, Form form)
            throws ServletException, IOException {
        request.setAttribute("form", form);
        Pages.render(request, response, "checkout-shipping");
    }

    private static void showConfirm(HttpServletRequest request, HttpServletResponse response, CheckoutDraft draft,
                                    Cart cart) throws ServletException, IOException {
        request.setAttribute("draft", draft);
        request.setAttribute("cart", cart);
        request.setAttribute("fingerprint", ConfirmationForm.fingerprint(draft, cart));
        Pages.render(request, response, "checkout-confirm");
    }
}
