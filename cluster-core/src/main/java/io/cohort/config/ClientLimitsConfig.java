package io.cohort.config;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The {@code <client-limits>} element of a {@code <balancer>}: what one client, or all of them, may
 * hold of the balancer before anyone has asked a member anything.
 *
 * @param headerTimeout            the longest a client may take to deliver a request head once it has begun
 *                                 sending one; then the balancer closes the connection without answering. The
 *                                 deadline runs from the connection's opening and from the end of each answer; a
 *                                 connection that has sent nothing when it passes is idle and stays until the
 *                                 idle timeout (so a head begun late gets at most twice this). No deadline runs
 *                                 while a request is being answered (its body and the member's answer are
 *                                 bounded by the request timeout). Proxy port only
 * @param maxConnections           the most client connections open at once on the proxy port; when it is
 *                                 reached the balancer stops accepting until one closes, and new connections
 *                                 wait in the kernel's accept queue
 * @param maxConnectionsPerAddress the most client connections open at once from one remote address, empty for
 *                                 no limit; a connection over it is closed as soon as it is accepted. Connections
 *                                 from the balancer's trusted proxies are not counted, since they carry many
 *                                 clients
 * @param requestRate              how fast one client may send requests, empty for no limit; the client is the
 *                                 address the balancer reports to members ({@code X-Forwarded-For}): the
 *                                 connection's peer, or behind a trusted proxy the client that proxy names
 */
public record ClientLimitsConfig(Duration headerTimeout, int maxConnections, OptionalInt maxConnectionsPerAddress,
                                 Optional<RequestRate> requestRate) {

    /** {@code <client-limits/>} with its schema defaults, also used when the element is absent. */
    public static final ClientLimitsConfig DEFAULT = new ClientLimitsConfig(Duration.ofSeconds(10), 10_000, OptionalInt.empty(),
            Optional.empty());

    public ClientLimitsConfig {
        Objects.requireNonNull(headerTimeout, "headerTimeout");
        if (headerTimeout.isZero() || headerTimeout.isNegative()) {
            throw new IllegalArgumentException("headerTimeout must be positive: " + headerTimeout);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        Objects.requireNonNull(maxConnectionsPerAddress, "maxConnectionsPerAddress");
        if (maxConnectionsPerAddress.isPresent() && maxConnectionsPerAddress.getAsInt() < 1) {
            throw new IllegalArgumentException("maxConnectionsPerAddress must be at least 1: " + maxConnectionsPerAddress.getAsInt());
        }
        Objects.requireNonNull(requestRate, "requestRate");
    }

    /**
     * {@code max-request-rate} and {@code request-burst}: one client may send {@code burst} requests at once, then
     * {@code perSecond} requests per second. Every request counts against the rate, refused ones too, so a client
     * that keeps sending faster stays refused until it slows below the rate.
     *
     * @param perSecond the requests per second one client may send on average, at least 1
     * @param burst     the requests one client may send at once after a pause, at least 1 (1: none closer together
     *                  than {@code 1 / perSecond})
     */
    public record RequestRate(int perSecond, int burst) {

        public RequestRate {
            if (perSecond < 1 || perSecond >= 1_000_000_000) {
                throw new IllegalArgumentException("perSecond must be from 1 to 999999999: " + perSecond);
            }
            if (burst < 1) {
                throw new IllegalArgumentException("burst must be at least 1: " + burst);
            }
        }
    }
}
