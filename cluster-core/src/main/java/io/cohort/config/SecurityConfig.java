package io.cohort.config;

import java.util.Objects;

/**
 * The {@code <security>} element: members authenticate each other with a shared secret.
 *
 * @param secret  the cluster secret, from {@code secret-env} or {@code secret-file}
 * @param encrypt whether traffic is encrypted with it as well (always true with {@code tls})
 * @param tls     whether members connect over TLS, each proving with a key derived from the secret that it holds
 *                the secret before anything it sends is read (peer protocol only)
 */
public record SecurityConfig(Secret secret, boolean encrypt, boolean tls) {

    public SecurityConfig {
        Objects.requireNonNull(secret, "secret");
        if (tls && !encrypt) {
            throw new IllegalArgumentException("TLS always encrypts: tls without encrypt is a contradiction");
        }
    }

    /** Security without TLS: AUTH, and SYM_ENCRYPT if {@code encrypt}. */
    public SecurityConfig(Secret secret, boolean encrypt) {
        this(secret, encrypt, false);
    }
}
