package io.cohort.jpetstore.web;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Renders a JSP under /WEB-INF/jsp with what every page shows (who is signed on, the cart's size, the last
 * viewed item, a notice, the anti-forgery token), and redirects within the shop. JSPs declare
 * {@code session="false"} and read the session only through these request attributes, so a page creates a
 * session only when it is rendered with {@link #renderForm} (it holds a form that posts).
 */
final class Pages {
    private Pages() {
    }

    /** A page without forms that post, or one shown only to a session that exists already. */
    static void render(HttpServletRequest request, HttpServletResponse response, String page)
            throws ServletException, IOException {
        show(request, response, page, false);
    }

    /** A page with a form that posts: makes sure of a session and its anti-forgery token first. */
    static void renderForm(HttpServletRequest request, HttpServletResponse response, String page)
            throws ServletException, IOException {
        show(request, response, page, true);
    }

    /**
     * The error page, for the status and message of the error dispatch: no notice (the failed request's
     * {@code ?notice=} was not about this page), and no new session.
     */
    static void renderError(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        setHeader(request, false);
        response.setHeader("Cache-Control", "no-store");
        request.getRequestDispatcher("/WEB-INF/jsp/error.jsp").forward(request, response);
    }

    private static void show(HttpServletRequest request, HttpServletResponse response, String page, boolean forms)
            throws ServletException, IOException {
        setHeader(request, forms);
        RequestParameters.optional(request, "notice").flatMap(Notice::fromCode)
                .ifPresent(n -> request.setAttribute("notice", n.message()));
        response.setHeader("Cache-Control", "no-store");
        request.getRequestDispatcher("/WEB-INF/jsp/" + page + ".jsp").forward(request, response);
    }

    /** What the header of every page shows. */
    private static void setHeader(HttpServletRequest request, boolean forms) {
        ShopSession session = ShopSession.of(request);
        request.setAttribute("csrf", CsrfToken.of(request, forms).orElse(""));
        request.setAttribute("signedOn", session.account().orElse(null));
        request.setAttribute("cartCount", session.cart().itemCount());
        request.setAttribute("lastViewed", session.viewedItem().orElse(null));
        Shop.ifReady(request).ifPresent(shop -> request.setAttribute("navCategories", shop.categories()));
    }

    /** Redirects to a path inside the shop ("/cart"). */
    static void redirect(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        response.sendRedirect(request.getContextPath() + path);
    }

    static void redirect(HttpServletRequest request, HttpServletResponse response, String path, Notice notice)
            throws IOException {
        redirect(request, response, path + (path.contains("?") ? "&" : "?") + "notice=" + notice.code());
    }
}
