package io.cohort.config;

import java.util.Objects;
import java.util.Optional;

/**
 * The {@code <admin>} element: health, metrics and the admin API. Health and metrics need no token;
 * the admin API (deploy, stop, ...) needs {@code Authorization: Bearer <token>} and is off when no
 * token is configured.
 *
 * @param enabled     whether the admin endpoint listens at all
 * @param bindAddress the address it listens on (loopback by default)
 * @param port        its port, 0 for a free one
 * @param token       the admin API bearer token, from {@code token-env} or {@code token-file}
 */
public record AdminConfig(boolean enabled, String bindAddress, int port, Optional<Secret> token) {

    public AdminConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Ports.check("port", port, 0);
        Objects.requireNonNull(token, "token");
    }

    /** Whether the token-protected admin API is served: the endpoint is enabled and a token is set. */
    public boolean apiEnabled() {
        return enabled && token.isPresent();
    }
}
