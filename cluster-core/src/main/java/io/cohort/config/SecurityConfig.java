package io.cohort.config;

import java.util.Objects;

/**
 * The {@code <security>} element: members authenticate each other with a shared secret.
 *
 * @param secret  the cluster secret, from {@code secret-env} or {@code secret-file}
 * @param encrypt whether traffic is encrypted with it as well
 */
public record SecurityConfig(Secret secret, boolean encrypt) {

    public SecurityConfig {
        Objects.requireNonNull(secret, "secret");
    }
}
