package io.cohort.bench.study.run;

import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.sut.NodeProbe;
import io.cohort.bench.sut.ProcessCpu;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples every node once a second: CPU used by its process since the previous sample (from
 * {@code /proc/<pid>/stat} when the node runs here, else from the node's {@code process_cpu_usage} gauge), and
 * interconnect bytes sent + received per second from its metrics, when it has them: a Cohort node's
 * {@code cohort_replication_bytes_total} (for the database protocol these count the session rows written), a
 * Tomcat peer node's {@code tomcat_tribes_bytes_total} (its cluster channel). A node that stops answering
 * (killed) simply has no more samples. Thread-safe.
 */
final class NodeSampler implements AutoCloseable {

    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final List<NodeProbe> probes;
    private final long origin;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "node-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, Reading> previous = new HashMap<>();
    private final List<NodeSample> samples = new ArrayList<>();

    /** One reading of a node's counters. */
    private record Reading(long at, OptionalDouble cpuSeconds, OptionalDouble cpuPercentNow, OptionalDouble bytes) {
    }

    /**
     * @param probes the nodes
     * @param origin the start of the measurement window ({@code System.nanoTime()}); sample times are relative to it
     */
    NodeSampler(List<NodeProbe> probes, long origin) {
        this.probes = List.copyOf(probes);
        this.origin = origin;
    }

    void start() {
        timer.scheduleAtFixedRate(this::sampleAll, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sampleAll() {
        for (NodeProbe probe : probes) {
            try {
                sample(probe);
            } catch (RuntimeException e) {
                // one bad reading must not end the sampling of the others
            }
        }
    }

    private void sample(NodeProbe probe) {
        long now = System.nanoTime();
        OptionalDouble cpuSeconds = probe.pid().isPresent() ? ProcessCpu.seconds(probe.pid().getAsLong())
                : OptionalDouble.empty();
        String metrics = probe.metrics().flatMap(uri -> MetricsPage.fetch(http, uri)).orElse(null);
        if (cpuSeconds.isEmpty() && metrics == null) {
            return; // gone
        }
        OptionalDouble bytes = metrics == null ? OptionalDouble.empty()
                : PrometheusText.sumAny(metrics, PrometheusText.INTERCONNECT_BYTES);
        OptionalDouble cpuNow = OptionalDouble.empty();
        if (probe.pid().isEmpty() && metrics != null) {
            OptionalDouble usage = PrometheusText.sum(metrics, PrometheusText.PROCESS_CPU);
            OptionalDouble cores = PrometheusText.sum(metrics, PrometheusText.CPU_COUNT);
            if (usage.isPresent() && cores.isPresent()) {
                cpuNow = OptionalDouble.of(usage.getAsDouble() * cores.getAsDouble() * 100);
            }
        }
        Reading reading = new Reading(now, cpuSeconds, cpuNow, bytes);
        Reading before;
        synchronized (this) {
            before = previous.put(probe.name(), reading);
        }
        if (before == null) {
            return;
        }
        double seconds = (now - before.at()) / 1e9;
        double cpu = reading.cpuPercentNow().orElse(Double.NaN);
        if (reading.cpuSeconds().isPresent() && before.cpuSeconds().isPresent()) {
            cpu = (reading.cpuSeconds().getAsDouble() - before.cpuSeconds().getAsDouble()) / seconds * 100;
        }
        double kBps = 0;
        if (reading.bytes().isPresent() && before.bytes().isPresent()) {
            kBps = (reading.bytes().getAsDouble() - before.bytes().getAsDouble()) / seconds / 1000;
        }
        NodeSample sample = new NodeSample(probe.name(), (now - origin) / 1e9, Double.isNaN(cpu) ? 0 : cpu, kBps);
        synchronized (this) {
            samples.add(sample);
        }
    }

    /** Stops sampling and returns every sample taken, in time order. */
    synchronized List<NodeSample> stop() {
        timer.shutdownNow();
        return List.copyOf(samples);
    }

    @Override
    public void close() {
        stop();
    }
}
