package io.cohort.cli.cluster;

/**
 * How a local cluster's group protocol (peer or multicast) protects its traffic: the replication pattern's
 * {@code sN} suffix. The default is the production setting; the others exist to measure what it costs.
 */
public enum GroupSecurity {
    /** {@code s0}: no {@code <security>}: members do not authenticate, frames are neither sealed nor encrypted. */
    NONE,
    /** {@code s1}: members authenticate and frames are sealed, but traffic is not encrypted ({@code encrypt="false"}). */
    AUTHENTICATED,
    /**
     * {@code s2}, the default: members authenticate and traffic is encrypted, as {@code <security>} does unless told
     * otherwise: over TLS with the peer protocol (as {@code s3}), by payload encryption and sealed frames with
     * multicast (as {@code s4}).
     */
    ENCRYPTED,
    /**
     * {@code s3}, peer protocol only: the members' connections are TLS with the key derived from the secret
     * ({@code tls="true"}), so nothing from a host without it is read.
     */
    TLS,
    /**
     * {@code s4}: members authenticate, frames are sealed and payloads encrypted ({@code SYM_ENCRYPT}), without TLS
     * ({@code tls="false"}): the peer protocol's default before 2026-11-27, and multicast's.
     */
    PAYLOAD_ENCRYPTED;

    /** The level of suffix digit {@code digit} (0 to 4). */
    static GroupSecurity ofDigit(int digit) {
        return values()[digit];
    }

    /** Whether the nodes need the cluster secret. */
    boolean usesSecret() {
        return this != NONE;
    }
}
