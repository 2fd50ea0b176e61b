package io.cohort.balancer;

import java.nio.charset.StandardCharsets;

/**
 * The request target a member is sent: the client's path and query in origin form, with every
 * character RFC 3986 does not allow there percent-encoded.
 *
 * <p>Jetty's server accepts a query with characters that browsers send unencoded
 * ({@code | { } ^ [ ] \ `} and others), but {@link java.net.URI}, through which HttpClient takes
 * the URI of a request, rejects them; non-ASCII characters it accepts, but they do not survive the
 * request line to the member. Percent-encoding them (non-ASCII as UTF-8 octets, as browsers do) is
 * undone by the member's own decoding, so it reads the same path and parameters. Existing escapes
 * are kept as they are: the target is never decoded and re-encoded, so {@code %2F} stays
 * {@code %2F}.
 */
final class UpstreamTarget {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UpstreamTarget() {
    }

    /**
     * The target to send for {@code pathQuery}, the raw path and query the client sent (without
     * the fragment). The result is the same string where nothing needed encoding, and is always
     * accepted by {@link java.net.URI} after a scheme and authority.
     *
     * @return the encoded target, or null when it cannot be forwarded: it is not origin form (does
     *         not begin with {@code /}, as {@code OPTIONS *}), or it has a {@code %} not followed
     *         by two hex digits (a malformed escape has no meaning to pass on)
     */
    static String of(String pathQuery) {
        if (pathQuery == null || !pathQuery.startsWith("/")) {
            return null;
        }
        StringBuilder out = null;
        for (int i = 0; i < pathQuery.length(); i++) {
            char c = pathQuery.charAt(i);
            if (c == '%' && !(i + 2 < pathQuery.length() && isHex(pathQuery.charAt(i + 1)) && isHex(pathQuery.charAt(i + 2)))) {
                return null;
            }
            if (allowed(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(pathQuery.length() + 16).append(pathQuery, 0, i);
            }
            int end = Character.isHighSurrogate(c) && i + 1 < pathQuery.length() && Character.isLowSurrogate(pathQuery.charAt(i + 1))
                    ? i + 2 : i + 1;
            for (byte b : pathQuery.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                out.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
            i = end - 1;
        }
        return out == null ? pathQuery : out.toString();
    }

    /** RFC 3986 {@code pchar}, {@code /} and {@code ?}: what a path and query may hold as they are; {@code %} is checked apart. */
    private static boolean allowed(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "-._~!$&'()*+,;=:@/?%".indexOf(c) >= 0;
    }

    private static boolean isHex(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }
}
