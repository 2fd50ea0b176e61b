package io.cohort.testapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Test application servlet: takes {@code ms} milliseconds (at most 10 s) to answer; with {@code set}
 * and {@code value}, then sets that attribute of the request's session (a request that changes the
 * session at its end, as a slow checkout does).
 */
public class SlowServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long millis = Math.min(10_000, Long.parseLong(request.getParameter("ms")));
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        String name = request.getParameter("set");
        if (name != null) {
            request.getSession().setAttribute(name, request.getParameter("value"));
        }
        response.setContentType("text/plain");
        response.getWriter().print("slept " + millis);
    }
}
