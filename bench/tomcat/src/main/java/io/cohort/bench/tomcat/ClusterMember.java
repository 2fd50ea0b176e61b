package io.cohort.bench.tomcat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * A member of the static Tribes membership, by the address of its cluster receiver.
 *
 * @param host the receiver's host (an IP address or a resolvable name)
 * @param port the receiver's TCP port
 */
public record ClusterMember(String host, int port) {

    public ClusterMember {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("member host is empty");
        }
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("member port must be 1 to 65535, not " + port);
        }
    }

    /** Parses {@code host:port}. */
    public static ClusterMember parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("a member is host:port, not '" + text + "'");
        }
        try {
            return new ClusterMember(text.substring(0, colon), Integer.parseInt(text.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a member is host:port, not '" + text + "'", e);
        }
    }

    /**
     * The 16-byte unique id Tribes requires of a static member, the same on every node because it is
     * derived from the address.
     */
    public byte[] uniqueId() {
        try {
            return MessageDigest.getInstance("MD5").digest(toString().getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("MD5 is a required JDK algorithm", e);
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
