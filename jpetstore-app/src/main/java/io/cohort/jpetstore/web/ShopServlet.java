package io.cohort.jpetstore.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Base of the shop's servlets: turns a {@link ClientErrorException} into the matching error page. */
abstract class ShopServlet extends HttpServlet {
    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        try {
            super.service(request, response);
        } catch (ClientErrorException e) {
            if (!response.isCommitted()) {
                response.sendError(e.status(), e.getMessage());
            }
        }
    }
}
