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
    /** {@code s2}, the default: members authenticate, frames are sealed and traffic is encrypted. */
    ENCRYPTED,
    /**
     * {@code s3}, peer protocol only: as {@code s2}, but the members' connections are TLS with the key derived from
     * the secret ({@code tls="true"}), so nothing from a host without it is read.
     */
    TLS;

    /** The level of suffix digit {@code digit} (0 to 3). */
    static GroupSecurity ofDigit(int digit) {
        return values()[digit];
    }

    /** Whether the nodes need the cluster secret. */
    boolean usesSecret() {
        return this != NONE;
    }
}
