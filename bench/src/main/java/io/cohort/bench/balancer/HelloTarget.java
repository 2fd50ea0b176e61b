package io.cohort.bench.balancer;

import io.cohort.balancer.BalancerServer;
import io.cohort.bench.balancer.Measurement.Target;
import io.cohort.bench.peers.BackendNode;
import io.cohort.bench.peers.HaproxyConfig;
import io.cohort.bench.peers.HaproxyFront;
import io.cohort.bench.sut.ProcessCpu;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import io.cohort.net.PresetPorts;
import io.cohort.node.CohortNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
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
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The servers under test: a Cohort node serving {@code hello.war} on 127.0.0.1 and, in front of it, a Cohort
 * balancer (both in this JVM) and HAProxy (its own process, the reference for what a proxy costs on the same
 * cores), all on free ports. {@link #close()} stops all three and deletes the node's directory.
 */
public final class HelloTarget implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path home;
    private final CohortNode node;
    private final BalancerServer balancer;
    private final HaproxyFront haproxy;
    private final Map<Target, URI> uris;

    private HelloTarget(Path home, CohortNode node, BalancerServer balancer, HaproxyFront haproxy, Map<Target, URI> uris) {
        this.home = home;
        this.node = node;
        this.balancer = balancer;
        this.haproxy = haproxy;
        this.uris = Map.copyOf(uris);
    }

    /**
     * Starts the node, the balancer and HAProxy, and returns once each answers the hello text.
     *
     * @throws IOException if HAProxy is not installed or a server does not answer in time
     */
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
        HaproxyFront haproxy = null;
        try {
            URI nodeHttp = loopback(node.self().httpAddress());
            URI health = loopback(node.self().adminAddress()).resolve("/health");
            Map<Target, URI> uris = new EnumMap<>(Target.class);
            uris.put(Target.DIRECT, nodeHttp.resolve(HelloWar.PATH));
            awaitHello(uris.get(Target.DIRECT));
            BalancerMember member = new BalancerMember("n1", "localhost", nodeHttp, health, 1);
            balancer = BalancerServer.start(BalancerConfig.defaults(List.of(member)).withPorts(0, 0));
            uris.put(Target.BALANCER, loopback(balancer.uri()).resolve(HelloWar.PATH));
            awaitHello(uris.get(Target.BALANCER));
            // the node runs in this JVM, so its process is this one (HAProxy's configuration uses only name and addresses)
            BackendNode backend = new BackendNode("n1", nodeHttp, health, ProcessHandle.current().pid(), Optional.empty());
            haproxy = HaproxyFront.start(new HaproxyConfig(PresetPorts.one(), List.of(backend)), home.resolve("haproxy"),
                    START_TIMEOUT);
            uris.put(Target.HAPROXY, haproxy.uri().resolve(HelloWar.PATH));
            awaitHello(uris.get(Target.HAPROXY));
            return new HelloTarget(home, node, balancer, haproxy, uris);
        } catch (Exception e) {
            try {
                stopAll(haproxy, balancer, node, home);
            } catch (Exception cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    public URI uri(Target target) {
        return uris.get(target);
    }

    /**
     * CPU seconds the servers have used so far: this JVM (node and balancer, with JIT, GC and health checks)
     * plus the HAProxy process.
     */
    public double serverCpuSeconds() {
        double jvm = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
        return jvm + ProcessCpu.seconds(haproxy.pid()).orElse(0);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stopAll(haproxy, balancer, node, home);
    }

    /** Stops whatever of the three runs and deletes the node's directory, each step even if an earlier one failed. */
    private static void stopAll(HaproxyFront haproxy, BalancerServer balancer, CohortNode node, Path home)
            throws IOException, InterruptedException {
        try {
            if (haproxy != null) {
                haproxy.close();
            }
        } finally {
            try {
                if (balancer != null) {
                    balancer.stop();
                }
            } finally {
                try {
                    node.stop();
                } finally {
                    try (Stream<Path> files = Files.walk(home)) {
                        for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(file);
                        }
                    }
                }
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
