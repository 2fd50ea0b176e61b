package io.cohort.balancer;

import io.cohort.config.ClientLimitsConfig.RequestRate;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.DoSHandler;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code max-request-rate} and {@code request-burst}: Jetty's {@link DoSHandler} in front of the proxy, with a leaking
 * bucket per client, and the answer to a request over the rate: 429 with {@code Retry-After}, counted in
 * {@code cohort_balancer_rate_limited_total} and logged the first time only, so a flood cannot flood the log.
 *
 * <p>The client is the address members get in {@code X-Forwarded-For} ({@link ForwardedHeaders#clientAddress}): behind
 * a trusted proxy, each client that proxy names has a bucket of its own. Jetty's bucket counts every request, refused
 * ones too, so a client that keeps sending faster than the rate stays refused until it slows below it. At most
 * 100,000 clients are tracked at once (Jetty's default); requests of further clients pass unlimited until buckets
 * empty and are dropped. Thread-safe; never blocks.
 */
final class RequestRateLimit implements Request.Handler {

    private static final Logger LOG = LoggerFactory.getLogger(RequestRateLimit.class);
    static final String TOO_MANY = "Too many requests from this client. Please wait a moment and try again.";

    private final String balancer;
    private final ForwardedHeaders clients;
    private final String retryAfterSeconds;
    private final Counter refused;
    private final AtomicBoolean logged = new AtomicBoolean();

    private RequestRateLimit(String balancer, RequestRate rate, ForwardedHeaders clients, MeterRegistry registry) {
        this.balancer = balancer;
        this.clients = clients;
        // a refused client's bucket is full: one more drip lets a request in only if the one before it already left
        this.retryAfterSeconds = String.valueOf(Math.max(1, (long) Math.ceil(2.0 / rate.perSecond())));
        this.refused = Counter.builder("cohort.balancer.rate.limited")
                .description("requests answered 429 because their client went over <client-limits max-request-rate>")
                .register(registry);
    }

    /**
     * {@code next} behind a rate limit per client.
     *
     * @param next     the handler requests within the rate go on to
     * @param rate     the rate and burst each client is allowed
     * @param clients  tells which client a request is from
     * @param balancer the balancer's name, for the log
     * @param registry where the refusals are counted
     */
    static Handler around(Handler next, RequestRate rate, ForwardedHeaders clients, String balancer, MeterRegistry registry) {
        // Jetty's bucket admits a request while it holds fewer than its size: a size of burst + 1 admits burst at once
        int bucketSize = rate.burst() == Integer.MAX_VALUE ? Integer.MAX_VALUE : rate.burst() + 1;
        return new DoSHandler(next, clients::clientAddress,
                new DoSHandler.LeakingBucketTrackerFactory(rate.perSecond(), bucketSize, null),
                new RequestRateLimit(balancer, rate, clients, registry), -1, false);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        refused.increment();
        if (logged.compareAndSet(false, true)) {
            LOG.warn("Balancer {} answered 429 to {}: over max-request-rate (further ones are counted in "
                    + "cohort_balancer_rate_limited_total, not logged)", balancer, clients.clientAddress(request));
        }
        response.getHeaders().put(HttpHeader.RETRY_AFTER, retryAfterSeconds);
        ErrorPage.refuse(request, response, callback, HttpStatus.TOO_MANY_REQUESTS_429, TOO_MANY);
        return true;
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
