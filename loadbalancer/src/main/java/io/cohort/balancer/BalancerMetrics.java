package io.cohort.balancer;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.jmx.JmxConfig;
import io.micrometer.jmx.JmxMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;

/**
 * The balancer's metrics, as the node's ({@code io.cohort.metrics.NodeMetrics}) but tagged
 * {@code balancer} instead of {@code node}: one registry published in Prometheus text format on
 * the admin port and as JMX MBeans (domain {@code metrics}), per-member meters from
 * {@link #member}, and the JVM's.
 */
final class BalancerMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JmxMeterRegistry jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final Counter unavailable;
    private final Counter refused;

    BalancerMetrics(String balancerName) {
        registry.add(prometheus);
        registry.add(jmx);
        registry.config().commonTags(List.of(Tag.of("balancer", balancerName)));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
        unavailable = Counter.builder("cohort.balancer.unavailable").description("requests answered 503 because no member was up")
                .register(registry);
        refused = Counter.builder("cohort.balancer.refused")
                .description("requests refused before routing: CONNECT, absolute URIs for other hosts, oversize bodies").register(registry);
    }

    MeterRegistry registry() {
        return registry;
    }

    /** The meters of one member; called once per member, at start. */
    MemberMeters member(Backend backend) {
        return new MemberMeters(registry, backend);
    }

    void unavailable() {
        unavailable.increment();
    }

    void refused() {
        refused.increment();
    }

    /** All meters in the Prometheus text exposition format (version 0.0.4). */
    String scrape() {
        return prometheus.scrape();
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
        jmx.close();
        prometheus.close();
    }
}
