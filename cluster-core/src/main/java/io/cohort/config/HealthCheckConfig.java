package io.cohort.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code <health>} element of a {@code <balancer>}: active health checks of its members. Every
 * {@code interval} the balancer GETs each member's health URL; an answer other than 2xx within
 * {@code timeout} fails the check. {@code fall} failures in a row mark an up member down,
 * {@code rise} passes in a row bring a down member back.
 *
 * @param path     the path checked on a member's url when the member has no health-url
 * @param interval the time between two checks of one member
 * @param timeout  the longest wait for an answer
 * @param fall     failed checks in a row that mark a member down (≥ 1)
 * @param rise     passed checks in a row that bring it back (≥ 1)
 */
public record HealthCheckConfig(String path, Duration interval, Duration timeout, int fall, int rise) {

    /** {@code <health/>} with its schema defaults, also used when the element is absent. */
    public static final HealthCheckConfig DEFAULT = new HealthCheckConfig("/health", Duration.ofSeconds(2), Duration.ofSeconds(1), 3, 2);

    public HealthCheckConfig {
        Objects.requireNonNull(path, "path");
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("health path must start with '/': " + path);
        }
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(timeout, "timeout");
        if (interval.isZero() || interval.isNegative() || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("health interval and timeout must be positive: " + interval + ", " + timeout);
        }
        if (fall < 1 || rise < 1) {
            throw new IllegalArgumentException("fall and rise must be at least 1: " + fall + ", " + rise);
        }
    }
}
