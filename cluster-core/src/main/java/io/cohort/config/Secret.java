package io.cohort.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * A secret value read from an environment variable or a file (a token, a password, the cluster
 * secret). {@link #toString()} never shows the value, so records holding a secret can be logged;
 * {@link #origin()} says where it came from. Two secrets are equal when their values are
 * (compared in constant time); {@link #hashCode()} is the same for every secret, so it reveals
 * nothing either. Call {@link #reveal()} only at the point of use.
 */
public final class Secret {

    private final String value;
    private final String origin;

    /**
     * @param value  the secret itself, not empty
     * @param origin where it came from, for messages, e.g. {@code environment variable DB_PASSWORD}
     */
    public Secret(String value, String origin) {
        this.value = Objects.requireNonNull(value, "value");
        this.origin = Objects.requireNonNull(origin, "origin");
        if (value.isEmpty()) {
            throw new IllegalArgumentException("a secret cannot be empty (" + origin + ")");
        }
    }

    /**
     * A secret as written in a variable or a file, without its trailing line ends: {@code $(cat token)} keeps none, but
     * a file, and a Kubernetes secret made from one, usually ends with one, which no header could carry. Whoever reads
     * a secret does this, the node and the tools that talk to it alike, so that they agree on its value.
     */
    public static String withoutTrailingLineEnds(String raw) {
        return raw.replaceFirst("[\\r\\n]+$", "");
    }

    /**
     * Whether {@code value} has spaces at its start or end: HTTP clients and Jetty trim them from a header's value, so
     * such an admin token could never be matched, and a cluster secret so written is a slip of the pen.
     */
    public static boolean hasSurroundingSpace(String value) {
        return !value.equals(value.strip());
    }

    /** Fewer characters than this make a secret worth a warning: it can be guessed (offline or online). */
    public static final int SHORTEST_QUIET_LENGTH = 16;

    /** Whether the secret is shorter than {@link #SHORTEST_QUIET_LENGTH}. */
    public boolean isShort() {
        return value.length() < SHORTEST_QUIET_LENGTH;
    }

    /** The secret value. Never log it. */
    public String reveal() {
        return value;
    }

    /** Where the value came from, e.g. {@code file /etc/cohort/secret}; safe to log. */
    public String origin() {
        return origin;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Secret that
                && MessageDigest.isEqual(value.getBytes(StandardCharsets.UTF_8), that.value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public int hashCode() {
        return 0x5EC2E7; // the same for all secrets: a hash of the value would leak information
    }

    @Override
    public String toString() {
        return "Secret[****]";
    }
}
