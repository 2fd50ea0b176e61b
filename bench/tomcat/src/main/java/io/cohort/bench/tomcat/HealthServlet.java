package io.cohort.bench.tomcat;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The node's health answer for balancers ({@code GET /health}: 200 {@code {"status":"UP"}}): the
 * connector accepts requests only after every context, the shop's included, has started. It never
 * creates a session.
 */
final class HealthServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("application/json");
        response.setHeader("Cache-Control", "no-store");
        response.getWriter().write("{\"status\":\"UP\"}");
    }
}
