package io.cohort.bench.balancer;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** The balancer benchmark's application: answers every GET with the same 100 bytes of text, no session. */
public class HelloServlet extends HttpServlet {

    static final byte[] BODY = "Hello from a Cohort node. This answer is plain text of exactly one hundred bytes, for benchmarks.\n\n\n"
            .getBytes(StandardCharsets.US_ASCII);

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        response.setContentLength(BODY.length);
        response.getOutputStream().write(BODY);
    }
}
