package io.cohort.bench.balancer;

import io.cohort.balancer.BalancerServer;
import io.cohort.bench.balancer.Measurement.Target;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import io.cohort.node.CohortNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The servers under test, in this JVM: a Cohort node serving {@code hello.war} on 127.0.0.1 and a
 * balancer in front of it, both on free ports. {@link #close()} stops both and deletes the node's
 * directory.
 */
public final class HelloTarget implements AutoCloseable {

    private final Path home;
    private final CohortNode node;
    private final BalancerServer balancer;
    private final URI direct;
    private final URI viaBalancer;

    private HelloTarget(Path home, CohortNode node, BalancerServer balancer, URI direct, URI viaBalancer) {
        this.home = home;
        this.node = node;
        this.balancer = balancer;
        this.direct = direct;
        this.viaBalancer = viaBalancer;
    }

    public static HelloTarget start() throws Exception {
        Path home = Files.createTempDirectory("cohort-bench-node-");
        HelloWar.write(home.resolve("webapps"));
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" host="localhost" http-port="0" webapps="webapps" work-dir="work" graceful-stop="2s"/>
                  <admin port="0"/>
                </cohort>
                """;
        CohortConfig config = ConfigLoader.parse(home.resolve("cohort.xml").toString(),
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), home, name -> null);
        CohortNode node = CohortNode.start(config);
        BalancerServer balancer = null;
        try {
            URI nodeHttp = loopback(node.self().httpAddress());
            URI direct = nodeHttp.resolve(HelloWar.PATH);
            awaitHello(direct);
            BalancerMember member = new BalancerMember("n1", "localhost", nodeHttp,
                    loopback(node.self().adminAddress()).resolve("/health"), 1);
            balancer = BalancerServer.start(BalancerConfig.defaults(List.of(member)).withPorts(0, 0));
            URI viaBalancer = loopback(balancer.uri()).resolve(HelloWar.PATH);
            awaitHello(viaBalancer);
            return new HelloTarget(home, node, balancer, direct, viaBalancer);
        } catch (Exception e) {
            if (balancer != null) {
                balancer.stop();
            }
            node.stop();
            throw e;
        }
    }

    public URI direct() {
        return direct;
    }

    public URI viaBalancer() {
        return viaBalancer;
    }

    public URI uri(Target target) {
        return target == Target.DIRECT ? direct : viaBalancer;
    }

    @Override
    public void close() throws IOException {
        balancer.stop();
        node.stop();
        try (Stream<Path> files = Files.walk(home)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        }
    }

    /** The same address with 127.0.0.1 as host, so that wrk never tries ::1 or a slow resolver. */
    private static URI loopback(URI uri) {
        return URI.create("http://127.0.0.1:" + uri.getPort() + (uri.getRawPath() == null ? "" : uri.getRawPath()));
    }

    /** Waits (at most 30 s) until the URI answers 200 with the servlet's body. */
    private static void awaitHello(URI uri) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<byte[]> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (response.statusCode() == 200 && Arrays.equals(response.body(), HelloServlet.BODY)) {
                    return;
                }
                last = "HTTP " + response.statusCode();
            } catch (IOException e) {
                last = e.toString();
            }
            Thread.sleep(200);
        }
        throw new IOException(uri + " did not answer the hello text within 30 s: " + last);
    }
}
