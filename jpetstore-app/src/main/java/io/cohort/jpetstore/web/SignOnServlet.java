package io.cohort.jpetstore.web;

import io.cohort.jpetstore.model.Account;
import io.cohort.jpetstore.web.form.Form;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code GET/POST /signon} signs on (then returns to the page in {@code next}, if any);
 * {@code POST /signoff} signs off by invalidating the session.
 */
public final class SignOnServlet extends ShopServlet {
    /** A path inside the shop: starts with one slash, no scheme, no host. */
    private static final Pattern LOCAL_PATH = Pattern.compile("/(?![/\\\\])[A-Za-z0-9/_.?=&%+-]*");
    /** A path segment that is empty or a dot segment, plain or percent-encoded. */
    private static final Pattern EMPTY_OR_DOT_SEGMENT = Pattern.compile("(?i)(|\\.|%2e)(|\\.|%2e)");

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (!request.getServletPath().equals("/signon")) {
            throw ClientErrorException.methodNotAllowed("Sign off with the button at the top of the page.");
        }
        request.setAttribute("form", Form.of(Map.of("next", safeNext(request).orElse(""))));
        Pages.renderForm(request, response, "signon");
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        if (request.getServletPath().equals("/signoff")) {
            ShopSession.of(request).signOff();
            Pages.redirect(request, response, "/", Notice.SIGNED_OFF);
            return;
        }
        Form form = Form.read(request, List.of("username", "next"));
        String password = Optional.ofNullable(request.getParameter("password")).orElse("");
        form.required("username", "User name");
        if (password.isEmpty()) {
            form.reject("password", "Password is required.");
        }
        Optional<Account> account = form.isValid()
                ? Shop.of(request).accounts().authenticate(form.value("username"), password)
                : Optional.empty();
        if (account.isEmpty()) {
            if (form.isValid()) {
                form.reject("password", "That user name and password do not match an account.");
            }
            request.setAttribute("form", form);
            Pages.renderForm(request, response, "signon");
            return;
        }
        ShopSession.of(request).signOn(account.get());
        Optional<String> next = safeNext(request);
        if (next.isPresent()) {
            Pages.redirect(request, response, next.get());
        } else {
            Pages.redirect(request, response, "/", Notice.SIGNED_ON);
        }
    }

    private static Optional<String> safeNext(HttpServletRequest request) {
        return RequestParameters.optional(request, "next").filter(SignOnServlet::isLocalPath);
    }

    /**
     * Whether {@code next} is a path inside the shop. Empty and dot segments are refused too: the container
     * normalizes a redirect's location, and {@code /..//evil.example} under the shop's context path would come out
     * as {@code //evil.example}, another site.
     */
    static boolean isLocalPath(String next) {
        if (!LOCAL_PATH.matcher(next).matches()) {
            return false;
        }
        String[] segments = next.split("\\?", 2)[0].substring(1).split("/", -1);
        for (int i = 0; i < segments.length; i++) {
            boolean trailingSlash = i == segments.length - 1 && segments[i].isEmpty();
            if (!trailingSlash && EMPTY_OR_DOT_SEGMENT.matcher(segments[i]).matches()) {
                return false;
            }
        }
        return true;
    }
}
