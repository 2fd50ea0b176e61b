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
 * A process's metrics: one registry that every component (Jetty, session stores, replication, the
 * balancer's proxy) registers its meters in, with the JVM's meters bound, published in Prometheus
 * text format on the admin connector and as JMX MBeans (domain {@code metrics}). Every meter of a
 * node carries the tag {@code node}; a balancer's carry {@code balancer}.
 */
public final class NodeMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JmxMeterRegistry jmx = new JmxMeterRegistry(JmxConfig.DEFAULT, Clock.SYSTEM);
    private final CompositeMeterRegistry registry = new CompositeMeterRegistry();
    private final JvmGcMetrics gc = new JvmGcMetrics();

    /** The metrics of a node, every meter tagged {@code node=<nodeName>}. */
    public NodeMetrics(String nodeName) {
        this("node", nodeName);
    }

    /** The metrics of a process whose meters are all tagged {@code <tagKey>=<tagValue>}. */
    public NodeMetrics(String tagKey, String tagValue) {
        registry.add(prometheus);
        registry.add(jmx);
        registry.config().commonTags(List.of(Tag.of(tagKey, tagValue)));
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
