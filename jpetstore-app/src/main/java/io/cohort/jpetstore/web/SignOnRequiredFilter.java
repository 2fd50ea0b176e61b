package io.cohort.jpetstore.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** Sends visitors who are not signed on to the sign-on page, which brings them back afterwards. */
public final class SignOnRequiredFilter extends HttpFilter {
    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (ShopSession.of(request).account().isPresent()) {
            chain.doFilter(request, response);
            return;
        }
        String back = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if ("GET".equals(request.getMethod()) && request.getQueryString() != null) {
            back += "?" + request.getQueryString();
        }
        Pages.redirect(request, response, "/signon?next=" + URLEncoder.encode(back, StandardCharsets.UTF_8));
    }
}
