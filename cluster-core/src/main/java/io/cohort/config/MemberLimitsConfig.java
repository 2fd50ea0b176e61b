package io.cohort.config;

import java.util.Objects;

/**
 * What the balancer holds for one member: the {@code max-connections}, {@code max-queued-per-member} and
 * {@code max-member-header-size} attributes of {@code <balancer>}. Each member has limits of its own of these sizes.
 *
 * @param maxConnections the most connections opened to one member (kept alive and reused)
 * @param maxQueued      the most requests that wait for a connection to one member while all its {@code maxConnections}
 *                       are busy; one more is the balancer's overload, answered 503 with {@code Retry-After} (HAProxy's
 *                       {@code maxqueue}). Every request passes through the queue, so there is no 0 that would mean
 *                       "no queue": it would refuse every request. A waiting request holds its client's connection,
 *                       so no more can wait than {@code <client-limits max-connections>} lets in
 * @param maxHeaderSize  the largest head (status line and headers) of a member's answer the balancer takes, from
 *                       {@link #MIN_HEADER_SIZE} to {@link #MAX_HEADER_SIZE}; a larger one is the member's error (502)
 */
public record MemberLimitsConfig(int maxConnections, int maxQueued, DataSize maxHeaderSize) {

    /**
     * The smallest {@code max-member-header-size}: a node's answer with a session cookie, its backup cookie and the usual
     * headers takes some hundred bytes, so a smaller limit would make most answers the member's error.
     */
    public static final DataSize MIN_HEADER_SIZE = DataSize.parse("1KiB");
    /**
     * The largest {@code max-member-header-size}: the balancer holds a head whole, once as it reads it and once as it
     * writes it to the client, for every exchange in flight; a head of megabytes is a broken member, not a use.
     */
    public static final DataSize MAX_HEADER_SIZE = DataSize.parse("1MiB");

    /** The schema defaults: 64 connections, 1,024 waiting requests (Jetty HttpClient's own default), a 64 KiB head. */
    public static final MemberLimitsConfig DEFAULT = new MemberLimitsConfig(64, 1024, DataSize.parse("64KiB"));

    public MemberLimitsConfig {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1: " + maxConnections);
        }
        if (maxQueued < 1) {
            throw new IllegalArgumentException("maxQueued must be at least 1: " + maxQueued);
        }
        Objects.requireNonNull(maxHeaderSize, "maxHeaderSize");
        if (maxHeaderSize.compareTo(MIN_HEADER_SIZE) < 0 || maxHeaderSize.compareTo(MAX_HEADER_SIZE) > 0) {
            throw new IllegalArgumentException("maxHeaderSize must be from " + MIN_HEADER_SIZE + " to " + MAX_HEADER_SIZE + ": "
                    + maxHeaderSize);
        }
    }
}
