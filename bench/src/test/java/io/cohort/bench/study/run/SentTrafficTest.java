package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.cohort.bench.sut.NodeProbe;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SentTrafficTest {

    private static final String NODE = """
            # TYPE cohort_replication_changes_total counter
            cohort_replication_changes_total{app="jpetstore",direction="sent",node="n1"} 300.0
            cohort_replication_changes_total{app="jpetstore",direction="received",node="n1"} 250.0
            cohort_replication_messages_total{app="jpetstore",direction="sent",node="n1"} 120.0
            cohort_replication_bytes_total{app="jpetstore",direction="sent",node="n1"} 75000.0
            cohort_replication_bytes_total{app="jpetstore",direction="received",node="n1"} 60000.0
            """;

    private final HttpClient http = HttpClient.newHttpClient();
    private HttpServer server;

    @BeforeEach
    void serveMetrics() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/metrics", exchange -> {
            byte[] body = NODE.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/slow", exchange -> {
            try {
                Thread.sleep(1_500); // a node on a saturated machine, later than a sample's 800 ms
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = NODE.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.createContext("/plain", exchange -> {
            byte[] body = "process_cpu_usage 0.25\n".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private NodeProbe node(String name, String path) {
        return new NodeProbe(name, OptionalLong.empty(), Optional.of(URI.create("http://127.0.0.1:"
                + server.getAddress().getPort() + path)));
    }

    @Test
    void sumsWhatEveryNodeSentAndNothingItReceived() {
        SentTraffic sent = SentTraffic.read(List.of(node("n1", "/metrics"), node("n2", "/metrics")), http);

        assertThat(sent).isEqualTo(new SentTraffic(600, 240, 150_000));
        assertThat(sent.changesPerMessage()).isEqualTo(2.5);
        assertThat(sent.since(new SentTraffic(100, 40, 50_000))).isEqualTo(new SentTraffic(500, 200, 100_000));
    }

    @Test
    void aNodeThatAnswersLaterThanASampleWouldWaitIsStillRead() {
        SentTraffic sent = SentTraffic.read(List.of(node("n1", "/slow")), http);

        assertThat(sent).isEqualTo(new SentTraffic(300, 120, 75_000));
    }

    @Test
    void aClusterWithoutReplicationCountersOrWithANodeThatDoesNotAnswerIsNotMeasured() {
        SentTraffic plain = SentTraffic.read(List.of(node("n1", "/plain")), http);
        assertThat(plain.changes()).isNaN();
        assertThat(plain.changesPerMessage()).isNaN();

        NodeProbe gone = new NodeProbe("n2", OptionalLong.empty(), Optional.of(URI.create("http://127.0.0.1:1/metrics")));
        assertThat(SentTraffic.read(List.of(node("n1", "/metrics"), gone), http)).isEqualTo(SentTraffic.NOT_MEASURED);
        assertThat(SentTraffic.read(List.of(new NodeProbe("n3", OptionalLong.of(1), Optional.empty())), http))
                .isEqualTo(SentTraffic.NOT_MEASURED);
        assertThat(new SentTraffic(0, 0, 0).changesPerMessage()).isNaN();
    }
}
