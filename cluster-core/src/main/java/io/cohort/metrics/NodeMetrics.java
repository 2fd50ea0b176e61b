package io.cohort.metrics;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
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
 * The node's metrics: one registry that every component (Jetty, session stores, replication)
 * registers its meters in, published in Prometheus text format on the admin connector and as JMX
 * MBeans (domain {@code metrics}). Every meter carries the tag {@code node}.
 */
public final class NodeMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JmxMeterRegistry jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final JvmGcMetrics gc = new JvmGcMetrics();

    public NodeMetrics(String nodeName) {
        registry.add(prometheus);
        registry.add(jmx);
        registry.config().commonTags(List.of(Tag.of("node", nodeName)));
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
    }

    /** Where components register meters. */
    public MeterRegistry registry() {
        return registry;
    }

    /** All meters in the Prometheus text exposition format (version 0.0.4). */
    public String scrape() {
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
