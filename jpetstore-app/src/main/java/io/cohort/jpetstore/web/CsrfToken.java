package io.cohort.jpetstore.web;

import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;

/**
 * The per-session anti-forgery token that every state-changing form posts back as {@value #PARAMETER}
 * (pages render it from the request attribute "csrf"). {@link CsrfFilter} rejects a POST without it.
 */
final class CsrfToken {
    static final String PARAMETER = "_csrf";
    private static final SecureRandom RANDOM = new SecureRandom();

    private CsrfToken() {
    }

    /** The session's token, made when missing; no token (and no session) if there is no session and not {@code create}. */
    static Optional<String> of(HttpServletRequest request, boolean create) {
        if (!create && request.getSession(false) == null) {
            return Optional.empty();
        }
        ShopSession session = ShopSession.of(request);
        Optional<String> token = session.csrfToken();
        if (token.isPresent()) {
            return token;
        }
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        session.saveCsrfToken(fresh);
        return Optional.of(fresh);
    }

    /** True if the request carries its session's token. */
    static boolean isPresentIn(HttpServletRequest request) {
        Optional<String> expected = ShopSession.of(request).csrfToken();
        String sent = request.getParameter(PARAMETER);
        return expected.isPresent() && sent != null && MessageDigest.isEqual(
                expected.get().getBytes(StandardCharsets.UTF_8), sent.getBytes(StandardCharsets.UTF_8));
    }
}
