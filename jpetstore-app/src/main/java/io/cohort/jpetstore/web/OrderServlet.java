package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.model.Order;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code /orders} lists the signed-on customer's orders; {@code /orders/view?id=} shows one of them. */
public final class OrderServlet extends ShopServlet {
    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        Account account = ShopSession.of(request).account()
                .orElseThrow(() -> new IllegalStateException("SignOnRequiredFilter is not mapped to /orders"));
        String path = request.getPathInfo() == null ? "/" : request.getPathInfo();
        Shop shop = Shop.of(request);
        switch (path) {
            case "/" -> {
                request.setAttribute("orders", shop.orders().historyOf(account.username()));
                Pages.render(request, response, "orders");
            }
            case "/view" -> {
                long id = orderId(request);
                Order order = shop.orders().find(id, account.username())
                        .orElseThrow(() -> ClientErrorException.notFound("You have no order number " + id + "."));
                request.setAttribute("order", order);
                Pages.render(request, response, "order");
            }
            default -> throw ClientErrorException.notFound("There is no such order page.");
        }
    }

    private static long orderId(HttpServletRequest request) {
        String raw = RequestParameters.requiredId(request, "id");
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw ClientErrorException.badRequest("An order number is a whole number, not '" + raw + "'.");
        }
    }
}
