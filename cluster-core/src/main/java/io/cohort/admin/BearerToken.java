package io.cohort.admin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;

/**
 * Checks the {@code Authorization: Bearer <token>} header of admin requests against the configured
 * token, in constant time. With no token configured, nothing is authorized.
 */
final class BearerToken {

    /** The scheme and its space; the scheme name is matched ignoring case (RFC 9110 §11.1). */
    private static final String PREFIX = "Bearer ";
    private final Optional<byte[]> expected;

    BearerToken(Optional<String> token) {
        this.expected = token.filter(t -> !t.isEmpty()).map(t -> t.getBytes(StandardCharsets.UTF_8));
    }

    boolean configured() {
        return expected.isPresent();
    }

    boolean authorizes(String authorizationHeader) {
        if (expected.isEmpty() || authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return false;
        }
        byte[] offered = authorizationHeader.substring(PREFIX.length()).strip().getBytes(StandardCharsets.UTF_8);
        return MessageDigest.isEqual(expected.get(), offered);
    }
}
