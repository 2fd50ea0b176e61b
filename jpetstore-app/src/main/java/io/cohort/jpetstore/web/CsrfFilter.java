package io.cohort.jpetstore.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** Rejects every POST that does not carry its session's {@link CsrfToken} with a 403 page. */
public final class CsrfFilter extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if ("POST".equals(request.getMethod()) && !CsrfToken.isPresentIn(request)) {
            response.sendError(HttpServletResponse.SC_FORBIDDEN,
                    "This form has expired or did not come from this shop. Please go back, reload the page and"
                            + " try again.");
            return;
        }
        chain.doFilter(request, response);
    }
}
