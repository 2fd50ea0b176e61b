package io.cohort.session.jetty;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import java.io.IOException;
import java.util.List;

/**
 * Tells balancers where the copies of a session are, in the {@code COHORT_BACKUP} cookie: the
 * routes of the members holding copies, in preference order, joined with '.' (routes never contain
 * one). Cohort's balancer sends a session whose owner is gone to the first live holder, which then
 * finds the session in its own memory instead of asking around.
 *
 * <p>The cookie is (re)set when the holders differ from what the client sent, before the
 * application runs (for an existing session) or after it (for a session the request created, or
 * one whose id it changed, since placement follows the id; if the response is not committed yet). A
 * session created or renamed by a request whose response is already committed gets the cookie with
 * its next request.
 */
public final class BackupRouteFilter implements Filter {

    public static final String COOKIE = "COHORT_BACKUP";

    private final SessionStoreAdapter adapter;

    public BackupRouteFilter(SessionStoreAdapter adapter) {
        this.adapter = adapter;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        HttpServletResponse response = (HttpServletResponse) res;
        HttpSession before = request.getSession(false);
        String beforeId = before == null ? null : before.getId();
        String sent = sentValue(request);
        if (before != null) {
            sent = announce(request, response, before, sent);
        }
        chain.doFilter(req, res);
        HttpSession after = request.getSession(false);
        if (after != null && !response.isCommitted() && (after != before || !after.getId().equals(beforeId))) {
            announce(request, response, after, sent);
        }
    }

    private String announce(HttpServletRequest request, HttpServletResponse response, HttpSession session, String sent) {
        String value;
        try {
            List<String> holders = adapter.store() == null ? List.of() : adapter.store().copyHolders(session.getId());
            value = String.join(".", holders);
        } catch (IllegalStateException invalidated) {
            return sent;
        }
        if (value.equals(sent)) {
            return sent;
        }
        Cookie cookie = new Cookie(COOKIE, value);
        cookie.setPath(request.getContextPath().isEmpty() ? "/" : request.getContextPath());
        cookie.setHttpOnly(true);
        cookie.setSecure(request.isSecure());
        if (value.isEmpty()) {
            cookie.setMaxAge(0); // no member holds a copy now: the ones the client names are gone, or hold none
        }
        response.addCookie(cookie);
        return value;
    }

    private static String sentValue(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (COOKIE.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return "";
    }
}
