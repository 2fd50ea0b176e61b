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
 * @param maxUpload   the largest WAR {@code PUT /admin/apps/{name}} accepts; a larger one gets 413 and leaves
 *                    nothing on disk
 */
public record AdminConfig(boolean enabled, String bindAddress, int port, Optional<Secret> token, DataSize maxUpload) {

    public AdminConfig {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Ports.check("port", port, 0);
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(maxUpload, "maxUpload");
        if (maxUpload.bytes() < 1) {
            throw new IllegalArgumentException("maxUpload must be at least 1 byte: " + maxUpload);
        }
    }

    /** Whether the token-protected admin API is served: the endpoint is enabled and a token is set. */
    public boolean apiEnabled() {
        return enabled && token.isPresent();
    }
}
