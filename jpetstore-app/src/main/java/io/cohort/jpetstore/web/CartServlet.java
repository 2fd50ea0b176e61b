package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Cart;
import io.cohort.jpetstore.model.CartLine;
import io.cohort.jpetstore.model.Item;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The cart: {@code GET /cart} shows it; {@code POST /cart/add} (itemId), {@code /cart/update}
 * (quantity-&lt;itemId&gt; per line, 0 removes) and {@code /cart/remove} (itemId) change it.
 */
public final class CartServlet extends ShopServlet {
    static final String QUANTITY_PREFIX = "quantity-";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (request.getPathInfo() != null && !request.getPathInfo().equals("/")) {
            throw ClientErrorException.notFound("There is no such cart page.");
        }
        show(request, response);
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String action = request.getPathInfo() == null ? "" : request.getPathInfo();
        switch (action) {
            case "/add" -> add(request, response);
            case "/update" -> update(request, response);
            case "/remove" -> remove(request, response);
            default -> throw ClientErrorException.notFound("There is no such cart action.");
        }
    }

    private static void show(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        request.setAttribute("cart", ShopSession.of(request).cart());
        Pages.render(request, response, "cart");
    }

    private static void add(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String itemId = RequestParameters.requiredId(request, "itemId");
        Item item = Shop.of(request).catalog().item(itemId)
                .orElseThrow(() -> ClientErrorException.notFound("There is no item '" + itemId + "'."));
        ShopSession session = ShopSession.of(request);
        if (!item.inStock()) {
            // it was in stock when the customer saw it: sold out since, which the cart page says
            request.setAttribute("error", "Sorry, " + item.displayName() + " (" + itemId + ") is out of stock.");
            show(request, response);
            return;
        }
        Optional<Cart> added = session.changeCart(cart -> cart.isFull() && cart.line(itemId).isEmpty()
                ? Optional.empty() : Optional.of(cart.add(item)));
        if (added.isEmpty()) {
            request.setAttribute("error", "Your cart holds at most " + Cart.MAX_LINES
                    + " different items. Please check out or remove some first.");
            show(request, response);
            return;
        }
        Pages.redirect(request, response, "/cart", Notice.ADDED);
    }

    private static void update(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        ShopSession session = ShopSession.of(request);
        Map<String, String> errors = new LinkedHashMap<>();
        Optional<Cart> updated = session.changeCart(cart -> {
            errors.clear(); // of an earlier try, on a cart another request has changed since
            Cart next = withQuantities(request, cart, errors);
            return errors.isEmpty() ? Optional.of(next) : Optional.empty();
        });
        if (updated.isEmpty()) {
            request.setAttribute("quantityErrors", errors);
            show(request, response);
            return;
        }
        Pages.redirect(request, response, "/cart", Notice.CART_UPDATED);
    }

    /** The cart with the quantities the request posts for its lines; each unreadable quantity goes to {@code errors}. */
    private static Cart withQuantities(HttpServletRequest request, Cart cart, Map<String, String> errors) {
        for (CartLine line : cart.lines()) {
            String raw = request.getParameter(QUANTITY_PREFIX + line.itemId());
            if (raw == null) {
                continue;
            }
            try {
                int quantity = Integer.parseInt(raw.strip());
                if (quantity < 0 || quantity > Cart.MAX_QUANTITY) {
                    throw new NumberFormatException();
                }
                cart = cart.withQuantity(line.itemId(), quantity);
            } catch (NumberFormatException e) {
                errors.put(line.itemId(), "Quantity should be a whole number from 0 to " + Cart.MAX_QUANTITY + ".");
            }
        }
        return cart;
    }

    private static void remove(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String itemId = RequestParameters.requiredId(request, "itemId");
        ShopSession session = ShopSession.of(request);
        session.changeCart(cart -> Optional.of(cart.remove(itemId)));
        Pages.redirect(request, response, "/cart", Notice.REMOVED);
    }
}
