package io.cohort.balancer;

import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.ClientLimitsConfig;
import io.cohort.net.AcceptQueue;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.jmx.MBeanContainer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running load balancer: the proxy on {@code bind-addr:port}, health and metrics on
 * {@code admin-bind-addr:admin-port}, active health checks of every member, meters in Prometheus
 * and JMX. Start it with {@link #start(BalancerConfig)}, stop it with {@link #stop()}.
 *
 * <pre>{@code
 * BalancerServer balancer = BalancerServer.start(ConfigLoader.loadBalancer(Path.of("conf/cohort.xml")));
 * Runtime.getRuntime().addShutdownHook(new Thread(balancer::stop));
 * balancer.join();
 * }</pre>
 */
public final class BalancerServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BalancerServer.class);
    private static final String PROXY = "proxy";
    private static final String ADMIN = "admin";

    private final BalancerConfig config;
    private final BalancerMetrics metrics;
    private final ClientConnectionClosures clientClosures;
    private final List<Backend> members = new ArrayList<>();
    private final Server server;
    private final ServerConnector proxyConnector;
    private final ServerConnector adminConnector;
    private final BalancerProxy proxy;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final LastKnownAddresses addresses;
    private HealthChecker healthChecker;

    private BalancerServer(BalancerConfig config, RandomGenerator random, Function<HttpClient, SocketAddressResolver> lookups) {
        this.config = config;
        this.metrics = new BalancerMetrics(config.name());
        this.addresses = new LastKnownAddresses(config.name(), metrics.registry(), lookups);
        this.clientClosures = new ClientConnectionClosures(config.name(), metrics.registry());
        for (BalancerMember member : config.members()) {
            // host names are not case-sensitive: blade1 and Blade1 are one machine
            members.add(new Backend(config.name(), member, member.host().equalsIgnoreCase(config.host()),
                    new HealthState(config.health().fall(), config.health().rise()), metrics));
        }
        if (config.policy().local() && members.stream().noneMatch(Backend::local)) {
            LOG.warn("Balancer {}: policy {} prefers members on its host {}, but no member has that host: it places "
                    + "requests as {} among all of them", config.name(), config.policy().xmlName(), config.host(),
                    config.policy().xmlName().replace(":local", ""));
        }
        Router router = new Router(members, RoutePolicy.create(config.policy(), members, random));

        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("cohort-" + config.name());
        server = new Server(threads);
        server.setStopAtShutdown(false);
        server.setStopTimeout(config.gracefulStop().toMillis());
        server.setErrorHandler(new BalancerErrorHandler());
        server.addBean(new MBeanContainer(ManagementFactory.getPlatformMBeanServer()));
        proxyConnector = connector(PROXY, config.bindAddress(), config.port(),
                http -> new ClientConnectionFactory(http, config.clientLimits().headerTimeout(), clientClosures));
        adminConnector = connector(ADMIN, config.adminBindAddress(), config.adminPort(), HttpConnectionFactory::new);
        ClientLimitsConfig limits = config.clientLimits();
        ForwardedHeaders forwarded = new ForwardedHeaders(config.trustedProxies());
        server.addBean(new NetworkConnectionLimit(limits.maxConnections(), proxyConnector));
        limits.maxConnectionsPerAddress().ifPresent(limit ->
                proxyConnector.addBean(new AddressConnectionLimit(limit, forwarded::isTrustedProxy, clientClosures)));

        ContextHandler admin = new ContextHandler(new BalancerAdminHandler(this::health, metrics), "/");
        admin.setVirtualHosts(List.of("@" + ADMIN));
        proxy = new BalancerProxy(config, router, metrics, forwarded, addresses);
        Handler clients = limits.requestRate()
                .map(rate -> RequestRateLimit.around(proxy, rate, forwarded, config.name(), metrics.registry()))
                .orElse(proxy);
        server.setHandler(new Handler.Sequence(admin, clients));
    }

    private ServerConnector connector(String name, String host, int port,
                                      Function<HttpConfiguration, HttpConnectionFactory> connections) {
        HttpConfiguration http = new HttpConfiguration();
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        http.setRequestHeaderSize((int) config.maxHeaderSize().bytes());
        // every member answer head the proxy's client takes must fit when passed on (Jetty's default is 16 KiB)
        http.setMaxResponseHeaderSize((int) config.memberLimits().maxHeaderSize().bytes() + BalancerProxy.OWN_RESPONSE_HEADERS);
        ServerConnector connector = new ServerConnector(server, connections.apply(http));
        connector.setName(name);
        connector.setHost(host);
        connector.setPort(port);
        connector.setIdleTimeout(config.idleTimeout().toMillis());
        // a burst of clients, and every client while max-connections are open, waits here
        connector.setAcceptQueueSize(AcceptQueue.SIZE);
        server.addConnector(connector);
        return connector;
    }

    /** Starts a balancer and returns once it accepts requests; on failure, whatever started is stopped. */
    public static BalancerServer start(BalancerConfig config) throws Exception {
        return start(config, new Random());
    }

    /**
     * {@link #start(BalancerConfig)} with the source of the random policies' draws and of round
     * robin's starting point (tests pass a seeded one; it must be thread-safe).
     */
    public static BalancerServer start(BalancerConfig config, RandomGenerator random) throws Exception {
        return start(config, random, LastKnownAddresses.JDK_LOOKUPS);
    }

    /**
     * {@link #start(BalancerConfig, RandomGenerator)} with the resolver that looks the members' host names up for each
     * of the balancer's HttpClients (tests pass one that they can make fail; see {@link LastKnownAddresses}).
     */
    static BalancerServer start(BalancerConfig config, RandomGenerator random,
                                Function<HttpClient, SocketAddressResolver> lookups) throws Exception {
        BalancerServer balancer = new BalancerServer(config, random, lookups);
        try {
            balancer.server.start();
            balancer.healthChecker = new HealthChecker(config.name(), config.idleTimeout(), config.health(), balancer.members,
                    balancer.addresses);
            balancer.healthChecker.start();
        } catch (Exception | Error e) {
            balancer.stop();
            throw e;
        }
        LOG.info("Balancer {} serving on {} ({} members, policy {}), health and metrics on {}", config.name(), balancer.uri(),
                config.members().size(), config.policy().xmlName(), balancer.adminUri());
        return balancer;
    }

    public BalancerConfig config() {
        return config;
    }

    /** Where clients send requests, e.g. {@code http://127.0.0.1:8000}. */
    public URI uri() {
        return uri(proxyConnector);
    }

    /** Where {@code GET /health} and {@code GET /metrics} are served. */
    public URI adminUri() {
        return uri(adminConnector);
    }

    /** Every member's current state, in configuration order. */
    public List<MemberStatus> members() {
        return members.stream().map(MemberStatus::of).toList();
    }

    /**
     * Stops checking, stops accepting, lets requests in flight finish (at most {@code graceful-stop})
     * and closes connections and meters. Idempotent; never throws.
     */
    public void stop() {
        if (stopped.getCount() == 0) {
            return;
        }
        try {
            if (healthChecker != null) {
                healthChecker.close();
            }
            server.stop();
        } catch (Exception e) {
            LOG.warn("Balancer {} did not stop cleanly", config.name(), e);
        } finally {
            metrics.close();
            stopped.countDown();
            LOG.info("Balancer {} stopped", config.name());
        }
    }

    /** Blocks until {@link #stop()} has finished. */
    public void join() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        stop();
    }

    BalancerMetrics metrics() {
        return metrics;
    }

    List<Backend> backends() {
        return members;
    }

    /** How many connections the proxy and admin ports hold until the balancer accepts them (as Jetty reports it). */
    List<Integer> acceptQueueSizes() {
        return List.of(proxyConnector.getAcceptQueueSize(), adminConnector.getAcceptQueueSize());
    }

    /** The proxy connector's bean of {@code type}, or null. */
    <T> T proxyConnectorBean(Class<T> type) {
        return proxyConnector.getBean(type);
    }

    ClientConnectionClosures clientClosures() {
        return clientClosures;
    }

    HealthChecker healthChecker() {
        return healthChecker;
    }

    private BalancerAdminHandler.Health health() {
        List<MemberStatus> status = members();
        boolean anyUp = status.stream().anyMatch(MemberStatus::up);
        return new BalancerAdminHandler.Health(anyUp ? "UP" : "DOWN", config.name(), config.host(), config.policy().xmlName(), status);
    }

    private static URI uri(ServerConnector connector) {
        String host = connector.getHost() == null || connector.getHost().equals("0.0.0.0") ? "127.0.0.1" : connector.getHost();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + connector.getLocalPort());
    }
}
