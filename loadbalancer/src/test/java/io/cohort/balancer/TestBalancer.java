package io.cohort.balancer;

import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.ClientLimitsConfig;
import io.cohort.config.DataSize;
import io.cohort.config.HealthCheckConfig;
import io.cohort.config.MemberLimitsConfig;
import io.cohort.config.Policy;
import io.cohort.net.PresetPorts;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.eclipse.jetty.util.SocketAddressResolver;

/**
 * A balancer on free ports in front of {@link StubMember}s, built in code the way the
 * {@code cohort cluster} command builds one, and a plain HTTP client to drive it.
 */
final class TestBalancer implements AutoCloseable {

    private static final AtomicInteger NAMES = new AtomicInteger();

    final BalancerServer server;
    final List<StubMember> stubs;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private TestBalancer(BalancerServer server, List<StubMember> stubs) {
        this.server = server;
        this.stubs = stubs;
    }

    /**
     * Settings a test may change; everything else is the schema default. Health checks run only when a test asks;
     * their timeout is long enough that a slow first answer on a busy machine does not fail them.
     */
    static final class Settings {
        Policy policy = Policy.ROUND_ROBIN;
        String host = "localhost";
        HealthCheckConfig health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(10), 1, 1);
        Map<String, Integer> weights = Map.of();
        DataSize maxRequestBody = DataSize.parse("10MB");
        DataSize maxHeaderSize = DataSize.parse("8KiB");
        Duration requestTimeout = Duration.ofSeconds(10);
        Duration idleTimeout = Duration.ofSeconds(30);
        int maxConnections = MemberLimitsConfig.DEFAULT.maxConnections();
        /** Extra members that listen nowhere: name to a port nothing listens on. */
        Map<String, Integer> deadMembers = Map.of();
        /** Extra members that a test serves from its own socket: name to that socket's loopback port. */
        Map<String, Integer> socketMembers = Map.of();
        /** Extra members at an address of the test's choosing: name to the member's url. */
        Map<String, URI> urlMembers = Map.of();
        /** Proxies in front of the balancer whose forwarding headers it believes. */
        List<String> trustedProxies = List.of();
        ClientLimitsConfig clientLimits = ClientLimitsConfig.DEFAULT;
        /** Most requests waiting for a connection to one member. */
        int maxQueuedPerMember = MemberLimitsConfig.DEFAULT.maxQueued();
        /** The largest head of a member's answer the balancer takes. */
        DataSize maxMemberHeaderSize = MemberLimitsConfig.DEFAULT.maxHeaderSize();
        /** What looks the members' host names up for each of the balancer's HttpClients. */
        Function<org.eclipse.jetty.client.HttpClient, SocketAddressResolver> lookups = LastKnownAddresses.JDK_LOOKUPS;
    }

    static TestBalancer start(Settings settings, StubMember... stubs) throws Exception {
        List<BalancerMember> members = new ArrayList<>();
        for (StubMember stub : stubs) {
            members.add(new BalancerMember(stub.name, stub.host, stub.url(), URI.create(stub.url() + "/health"),
                    settings.weights.getOrDefault(stub.host, 1)));
        }
        settings.deadMembers.forEach((name, port) -> members.add(portMember(name, port)));
        settings.socketMembers.forEach((name, port) -> members.add(portMember(name, port)));
        settings.urlMembers.forEach((name, url) -> members.add(new BalancerMember(name, "elsewhere", url, url.resolve("/health"), 1)));
        BalancerConfig config = new BalancerConfig("lb" + NAMES.incrementAndGet(), settings.host, "127.0.0.1", 0, "127.0.0.1", 0,
                settings.policy, "JSESSIONID", Duration.ofSeconds(2), settings.requestTimeout, settings.idleTimeout,
                settings.maxRequestBody, settings.maxHeaderSize,
                new MemberLimitsConfig(settings.maxConnections, settings.maxQueuedPerMember, settings.maxMemberHeaderSize), Duration.ZERO,
                settings.health, settings.clientLimits, members, settings.weights, settings.trustedProxies);
        return new TestBalancer(BalancerServer.start(config, new Random(42), settings.lookups), List.of(stubs));
    }

    private static BalancerMember portMember(String name, int port) {
        return new BalancerMember(name, "elsewhere", URI.create("http://127.0.0.1:" + port),
                URI.create("http://127.0.0.1:" + port + "/health"), 1);
    }

    static TestBalancer start(Policy policy, StubMember... stubs) throws Exception {
        Settings settings = new Settings();
        settings.policy = policy;
        return start(settings, stubs);
    }

    /**
     * A loopback port nothing listens on. Taken below the ephemeral range, so the stub members and the balancer, which
     * bind port 0 after this is picked, cannot be given it (an ephemeral port, closed at once, once came back to a
     * stub member, and the "dead" member answered 404).
     */
    static int deadPort() throws IOException {
        return PresetPorts.one();
    }

    /**
     * A member url on a network this machine cannot reach: connecting to it fails at once with {@code ENETUNREACH},
     * which the JDK reports on Linux as a plain {@link SocketException} ("Network is unreachable"), no
     * {@link java.net.ConnectException} or {@link java.net.NoRouteToHostException}. The kernel refuses a TCP connection
     * to a multicast group that way whatever the routing table holds, before any packet leaves (a documentation
     * address such as 2001:db8::1 is sent to the default route when there is one, and this machine may have one). Asserts
     * that a plain connect really fails so, so that a test using it cannot pass for another reason.
     */
    static URI unreachableNetworkUrl() throws IOException {
        InetSocketAddress group = new InetSocketAddress(InetAddress.getByName("224.0.0.1"), 80);
        try (Socket socket = new Socket()) {
            socket.connect(group, 2_000);
            throw new AssertionError("a connection to " + group + " was made; this test needs a network that is unreachable");
        } catch (SocketException unreachable) {
            assertThat(unreachable).as("connecting to " + group).isExactlyInstanceOf(SocketException.class)
                    .hasMessageContaining("Network is unreachable");
        }
        return URI.create("http://224.0.0.1:80");
    }

    HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(server.uri().resolve(path)).GET(), headers);
    }

    HttpResponse<String> post(String path, String body, String... headers) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(server.uri().resolve(path)).POST(HttpRequest.BodyPublishers.ofString(body)), headers);
    }

    CompletableFuture<HttpResponse<String>> sendAsync(HttpRequest.Builder request) {
        return client.sendAsync(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> send(HttpRequest.Builder request, String... headers) throws IOException, InterruptedException {
        if (headers.length > 0) {
            request.headers(headers);
        }
        return client.send(request.timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The member that served a response, from the balancer's routing header. */
    static String routedTo(HttpResponse<?> response) {
        String routed = response.headers().firstValue(BalancerProxy.ROUTED_HEADER).orElse("");
        int semicolon = routed.indexOf(';');
        return semicolon < 0 ? routed : routed.substring(0, semicolon);
    }

    Backend backend(String name) {
        return server.backends().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * Waits until no member has a request in flight, at most 20 s, and asserts it: the balancer ends an exchange just after
     * the client has the last byte of its answer, so right after an answer the count may still include it.
     */
    void awaitNothingInFlight() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (server.backends().stream().anyMatch(b -> b.inFlight() != 0)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("requests still in flight: "
                        + server.backends().stream().map(b -> b.name() + "=" + b.inFlight()).toList());
            }
            Thread.sleep(10);
        }
    }

    /** Runs health checks of every member until {@code condition} holds (at most 50 rounds). */
    void checkUntil(BooleanSupplier condition) throws Exception {
        for (int i = 0; i < 50 && !condition.getAsBoolean(); i++) {
            server.healthChecker().checkAll().get();
        }
        if (!condition.getAsBoolean()) {
            throw new AssertionError("condition not reached after 50 rounds of health checks");
        }
    }

    @Override
    public void close() {
        server.stop();
        for (StubMember stub : stubs) {
            stub.close();
        }
    }
}
