package io.cohort.testapp;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Test application servlet that takes its time: {@code ms} milliseconds, or with {@code until} (a file path) until
 * that file exists; at most 60 s either way. With {@code set} and {@code value} it then sets that attribute of the
 * request's session (a request that changes the session at its end, as a slow checkout does); with
 * {@code invalidate} it then invalidates the session (a slow sign-off).
 */
public class SlowServlet extends HttpServlet {

    private static final long LIMIT_MILLIS = 60_000;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String until = request.getParameter("until");
        String outcome;
        try {
            if (until != null) {
                outcome = awaitFile(Path.of(until)) ? "released" : "not released";
            } else {
                long millis = Math.min(LIMIT_MILLIS, Long.parseLong(request.getParameter("ms")));
                Thread.sleep(millis);
                outcome = "slept " + millis;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            outcome = "interrupted";
        }
        String name = request.getParameter("set");
        if (name != null) {
            request.getSession().setAttribute(name, request.getParameter("value"));
        }
        if (request.getParameter("invalidate") != null && request.getSession(false) != null) {
            request.getSession(false).invalidate();
        }
        if (request.getParameter("changeId") != null && request.getSession(false) != null) {
            request.changeSessionId(); // a sign-on
        }
        response.setContentType("text/plain");
        response.getWriter().print(outcome);
    }

    private static boolean awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + LIMIT_MILLIS * 1_000_000;
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }
}
