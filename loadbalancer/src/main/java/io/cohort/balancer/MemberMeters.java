package io.cohort.balancer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * One member's meters, created at start so the request path only increments (tag {@code member}):
 * {@code cohort_balancer_requests_total} (attempts sent to the member),
 * {@code cohort_balancer_errors_total} (attempts that got no response: connection refused or
 * broken, timeout), {@code cohort_balancer_retries_total} (attempts retried on another member),
 * {@code cohort_balancer_resends_total} (requests sent to the member again after a stale kept-alive connection, see
 * {@link StaleConnection}: not among its errors),
 * {@code cohort_balancer_sticky_hits_total}, {@code cohort_balancer_failovers_total} (requests
 * whose owner was down that this member took as a backup holder),
 * {@code cohort_balancer_active_connections} (requests in flight) and
 * {@code cohort_balancer_latency_seconds} (a histogram of the attempts the member answered, each from when it was
 * given to the member to the end of its answer: a retried request's time at the member that failed first is not in it),
 * {@code cohort_balancer_late_timeouts_total} (health checks and connections that timed out while the
 * member was answering other requests, not counted against it) and {@code cohort_balancer_member_up} (1 or 0).
 */
final class MemberMeters {

    final Counter requests;
    final Counter errors;
    final Counter retries;
    final Counter resends;
    final Counter stickyHits;
    final Counter failovers;
    final Counter lateTimeouts;
    final Timer latency;

    MemberMeters(MeterRegistry registry, Backend backend) {
        Tags tags = Tags.of("member", backend.name());
        requests = Counter.builder("cohort.balancer.requests").description("requests sent to the member").tags(tags).register(registry);
        errors = Counter.builder("cohort.balancer.errors").description("requests the member did not answer").tags(tags).register(registry);
        retries = Counter.builder("cohort.balancer.retries").description("requests retried on another member after this one failed")
                .tags(tags).register(registry);
        resends = Counter.builder("cohort.balancer.resends")
                .description("idempotent requests sent to the member again after the kept-alive connection they went out on ended before any answer")
                .tags(tags).register(registry);
        stickyHits = Counter.builder("cohort.balancer.sticky.hits").description("requests routed to the member as their session's owner")
                .tags(tags).register(registry);
        failovers = Counter.builder("cohort.balancer.failovers")
                .description("requests whose session owner was down, routed to the member as a backup holder").tags(tags).register(registry);
        lateTimeouts = Counter.builder("cohort.balancer.late.timeouts")
                .description("health checks and connections that timed out while the member was answering other requests")
                .tags(tags).register(registry);
        latency = Timer.builder("cohort.balancer.latency").description("time from an attempt's start at the member to the end of its response")
                .tags(tags).publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(60)).register(registry);
        Gauge.builder("cohort.balancer.active.connections", backend, Backend::inFlight)
                .description("requests in flight to the member").tags(tags).register(registry);
        Gauge.builder("cohort.balancer.member.up", backend, b -> b.isUp() ? 1 : 0).description("1 while the member is up")
                .tags(tags).register(registry);
    }

    /** Records an attempt that the member answered, begun at {@code startNanos} ({@link System#nanoTime}). */
    void recordLatency(long startNanos) {
        latency.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
    }
}
