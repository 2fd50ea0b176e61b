package io.cohort.balancer;

import io.cohort.metrics.NodeMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The balancer's metrics: the same registry as a node's ({@link NodeMetrics}: Prometheus text on the
 * admin port, JMX MBeans in domain {@code metrics}, the JVM's meters) tagged {@code balancer}
 * instead of {@code node}, with per-member meters from {@link #member}.
 */
final class BalancerMetrics implements AutoCloseable {

    private final NodeMetrics metrics;
    private final Counter unavailable;
    private final Counter refused;
    private final Counter clientAborted;
    private final Counter overloaded;
    private final BodyBufferMeters bodyBuffers;

    BalancerMetrics(String balancerName) {
        metrics = new NodeMetrics("balancer", balancerName);
        MeterRegistry registry = metrics.registry();
        unavailable = Counter.builder("cohort.balancer.unavailable").description("requests answered 503 because no member was up")
                .register(registry);
        refused = Counter.builder("cohort.balancer.refused")
                .description("requests answered 4xx for the client's fault: CONNECT, absolute URIs for other hosts, "
                        + "oversize bodies, malformed targets, bodies that stalled or broke off")
                .register(registry);
        clientAborted = Counter.builder("cohort.balancer.client.aborted")
                .description("requests whose client went away: closed its connection before the answer began (the member's request was aborted)"
                        + " or while the answer streamed to it, or stopped reading until the exchange timed out")
                .register(registry);
        overloaded = Counter.builder("cohort.balancer.overloaded")
                .description("requests answered 503 because the balancer's queue for their member was full")
                .register(registry);
        bodyBuffers = new BodyBufferMeters(registry);
    }

    MeterRegistry registry() {
        return metrics.registry();
    }

    /** The meters of one member; called once per member, at start. */
    MemberMeters member(Backend backend) {
        return new MemberMeters(metrics.registry(), backend);
    }

    /** What the small bodies being read before a member is asked hold ({@link BufferedBody}). */
    BodyBufferMeters bodyBuffers() {
        return bodyBuffers;
    }

    void unavailable() {
        unavailable.increment();
    }

    void refused() {
        refused.increment();
    }

    void clientAborted() {
        clientAborted.increment();
    }

    void overloaded() {
        overloaded.increment();
    }

    double overloadedCount() {
        return overloaded.count();
    }

    double clientAbortedCount() {
        return clientAborted.count();
    }

    /** All meters in the Prometheus text exposition format (version 0.0.4). */
    String scrape() {
        return metrics.scrape();
    }

    @Override
    public void close() {
        metrics.close();
    }
}
