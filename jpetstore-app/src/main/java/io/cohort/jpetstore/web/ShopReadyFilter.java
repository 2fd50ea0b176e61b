package io.cohort.jpetstore.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Brings the shop up on the first request (see {@link ShopBootstrap}) and hands it to the servlets as a
 * request attribute. While the database cannot be prepared, pages answer 503 and the cause is logged.
 */
public final class ShopReadyFilter extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        ShopBootstrap bootstrap = (ShopBootstrap) getServletContext().getAttribute(ShopBootstrap.CONTEXT_ATTRIBUTE);
        try {
            request.setAttribute(Shop.REQUEST_ATTRIBUTE, bootstrap.shop());
        } catch (ShopUnavailableException e) {
            getServletContext().log("JPetStore is not available: " + e.getMessage(), e);
            response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                    "The shop is not available at the moment. Please try again in a minute.");
            return;
        }
        chain.doFilter(request, response);
    }
}
