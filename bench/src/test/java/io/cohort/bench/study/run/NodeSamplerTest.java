package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.sun.net.httpserver.HttpServer;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.sut.NodeProbe;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The node sampler against a stand-in node whose interconnect counter rises at a steady rate. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeSamplerTest {

    /** Bytes per second the stand-in node's replication counter rises by. */
    private static final double RATE = 1_000_000;

    @Test
    void aMetricsPageThatAnswersTooLateLosesNoInterconnectBytes() throws Exception {
        long start = System.nanoTime();
        AtomicInteger requests = new AtomicInteger();
        HttpServer node = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        node.createContext("/metrics", exchange -> {
            if (requests.incrementAndGet() == 3) {
                try {
                    Thread.sleep(1_200); // a saturated node: the sampler gives up after 800 ms
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            double bytes = RATE * (System.nanoTime() - start) / 1e9;
            byte[] page = String.format(java.util.Locale.ROOT,
                    "cohort_replication_bytes_total{app=\"shop\",direction=\"sent\"} %.1f%n", bytes)
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, page.length);
            exchange.getResponseBody().write(page);
            exchange.close();
        });
        node.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        node.start();
        try {
            URI metrics = URI.create("http://127.0.0.1:" + node.getAddress().getPort() + "/metrics");
            // the test's own process stands in for the node's CPU, so a sample without metrics is still taken
            NodeSampler sampler = new NodeSampler(List.of(new NodeProbe("n1", OptionalLong.of(ProcessHandle.current().pid()),
                    Optional.of(metrics))), start);
            sampler.start();
            Thread.sleep(7_500);
            List<NodeSample> samples = sampler.stop();

            assertThat(samples).as("a sample a second").hasSizeGreaterThanOrEqualTo(6);
            double mean = samples.stream().mapToDouble(NodeSample::interconnectKBps).average().orElseThrow();
            assertThat(mean).as("mean interconnect KB/s of %s", samples).isCloseTo(RATE / 1000, within(RATE / 1000 * 0.15));
        } finally {
            node.stop(0);
        }
    }
}
