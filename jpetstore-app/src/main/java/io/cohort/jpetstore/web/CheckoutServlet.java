package io.cohort.jpetstore.web;

import io.cohort.jpetstore.data.OutOfStockException;
import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Address;
import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CheckoutDraft;
import io.cohort.jpetstore.model.PaymentDetails;
import io.cohort.jpetstore.web.form.AddressForm;
import io.cohort.jpetstore.web.form.Form;
import io.cohort.jpetstore.web.form.PaymentForm;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The checkout wizard, for a signed-on customer with a non-empty cart:
 * {@code /checkout} (payment and billing address, and whether to ship elsewhere) → {@code /checkout/shipping}
 * (only if asked) → {@code /checkout/confirm}, whose POST places the order in one transaction.
 * The steps' answers are kept in the session as a {@link CheckoutDraft}.
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
        if (session.cart().isEmpty()) {
            Pages.redirect(request, response, "/cart");
            return;
        }
        String step = step(request);
        if (step.equals("payment")) {
            postPayment(request, response, session);
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
        Address shipTo = session.checkout().filter(d -> shipElsewhere && d.shipElsewhere())
                .map(CheckoutDraft::shipTo).orElse(billTo);
        session.saveCheckout(new CheckoutDraft(payment, billTo, shipElsewhere, shipTo));
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

    private static void placeOrder(HttpServletRequest request, HttpServletResponse response, ShopSession session,
                                   CheckoutDraft draft) throws ServletException, IOException {
        if (!session.claimCheckout(draft)) { // another request of this session is placing this order
            Pages.redirect(request, response, "/orders");
            return;
        }
        Cart cart = session.cart();
        long orderId;
        try {
            orderId = Shop.of(request).orders().place(signedOn(session).username(), draft, cart);
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
        }
        session.orderPlaced();
        Pages.redirect(request, response, "/orders/view?id=" + orderId, Notice.ORDER_PLACED);
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
        Pages.render(request, response, "checkout-confirm");
    }
}
