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
    /** The time one sample covers: the period before it. */
    static final double PERIOD_SECONDS = PERIOD.toNanos() / 1e9;

    private final List<NodeProbe> probes;
    private final long origin;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(500)).build();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "node-sampler");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<String, Reading> previous = new HashMap<>();
    /** Per node, the last reading that had a byte count: interconnect rates are taken against it. */
    private final Map<String, BytesMark> lastBytes = new HashMap<>();
    /** Per node, the samples taken since its last byte count whose metrics did not answer in time (by index). */
    private final Map<String, List<Integer>> awaitingBytes = new HashMap<>();
    private final List<NodeSample> samples = new ArrayList<>();

    /** One reading of a node's counters. */
    private record Reading(long at, OptionalDouble cpuSeconds, OptionalDouble cpuPercentNow, OptionalDouble bytes) {
    }

    /** A node's interconnect byte count and when it was read. */
    private record BytesMark(long at, double bytes) {
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
            if (before == null) {
                // the first reading: what later ones are taken against
                reading.bytes().ifPresent(count -> lastBytes.put(probe.name(), new BytesMark(now, count)));
                return;
            }
        }
        double seconds = (now - before.at()) / 1e9;
        double cpu = reading.cpuPercentNow().orElse(Double.NaN);
        if (reading.cpuSeconds().isPresent() && before.cpuSeconds().isPresent()) {
            cpu = (reading.cpuSeconds().getAsDouble() - before.cpuSeconds().getAsDouble()) / seconds * 100;
        }
        NodeSample sample = new NodeSample(probe.name(), (now - origin) / 1e9, Double.isNaN(cpu) ? 0 : cpu, 0);
        synchronized (this) {
            samples.add(sample);
            recordInterconnect(probe.name(), reading, samples.size() - 1);
        }
    }

    /**
     * Gives the sample at {@code index} the node's interconnect rate. A reading whose metrics did not answer in time
     * (a saturated node can take longer than a second) has no byte count: its sample waits, and the next reading that
     * has one gives the rate over the whole time since the one before it to every sample in between. Reading 0 for
     * them instead would lose the bytes of that time, more of them under the patterns that replicate more.
     */
    private void recordInterconnect(String node, Reading reading, int index) {
        if (reading.bytes().isEmpty()) {
            if (lastBytes.containsKey(node)) {
                awaitingBytes.computeIfAbsent(node, n -> new ArrayList<>()).add(index);
            }
            return;
        }
        BytesMark mark = lastBytes.put(node, new BytesMark(reading.at(), reading.bytes().getAsDouble()));
        List<Integer> waiting = awaitingBytes.remove(node);
        if (mark == null) {
            return;
        }
        double kBps = (reading.bytes().getAsDouble() - mark.bytes()) / ((reading.at() - mark.at()) / 1e9) / 1000;
        List<Integer> indices = new ArrayList<>(waiting == null ? List.of() : waiting);
        indices.add(index);
        for (int i : indices) {
            NodeSample s = samples.get(i);
            samples.set(i, new NodeSample(s.node(), s.second(), s.cpuPercent(), kBps));
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
