package io.cohort.node;

import io.cohort.admin.AdminHandler;
import io.cohort.admin.AdminOperations;
import io.cohort.admin.HealthReport;
import io.cohort.admin.NodeNotServingException;
import io.cohort.admin.NodeState;
import io.cohort.cluster.Member;
import io.cohort.config.CohortConfig;
import io.cohort.config.Secret;
import io.cohort.metrics.LoadProbe;
import io.cohort.metrics.NodeMetrics;
import io.cohort.net.AcceptQueue;
import io.cohort.node.deploy.ApplicationDeployer;
import io.cohort.node.deploy.ApplicationInfo;
import io.cohort.node.deploy.ApplicationName;
import io.cohort.node.deploy.DeploymentException;
import io.cohort.node.deploy.WarDirectoryWatcher;
import io.cohort.session.SessionStoreFactory;
import io.cohort.session.SessionStoreProvider;
import io.cohort.session.local.LocalSessionStoreFactory;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.jmx.MBeanContainer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.ContextHandler;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.server.handler.StatisticsHandler;
import org.eclipse.jetty.session.DefaultSessionIdManager;
import org.eclipse.jetty.session.HouseKeeper;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Cohort node: an embedded Jetty 12 server that serves the WARs of its {@code webapps/}
 * directory on the HTTP connector, and health, metrics and the admin API on the admin connector.
 *
 * <p>{@link #start} returns when the node serves. The HTTP port is bound first (a port in use fails the start at
 * once, and the node's address is known to the cluster) but accepts connections only once the WARs found at start
 * are deployed: a client, or a proxy that only checks the port, that connects meanwhile waits in the port's
 * backlog and is then served by the application, never answered 404 by a node still deploying it (as Tomcat's
 * connector binds at init and accepts after the engine started). {@link #stop} is graceful: the node reports DRAINING,
 * stops accepting connections, lets in-flight requests finish (at most {@code graceful-stop}), stops
 * every application one after another (each hands its sessions to the session store, e.g. for the
 * onShutdown trigger, within {@code graceful-stop} again), leaves the cluster and closes its pools.
 */
public final class CohortNode implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CohortNode.class);
    private static final String HTTP = "http";
    private static final String ADMIN = "admin";
    /** The suffix of an admin API upload in progress, next to the WARs in {@code webapps/}. */
    private static final String UPLOAD_SUFFIX = ".upload";
    /** How often expired sessions are invalidated (their listeners run, their copies are removed). */
    private static final long SCAVENGE_INTERVAL_SECONDS = 60;

    private final CohortConfig config;
    private final List<SessionStoreProvider> providers;
    private final NodeMetrics metrics;
    private final Server server;
    private final ServerConnector httpConnector;
    private final Optional<ServerConnector> adminConnector;
    private final StatisticsHandler statistics;
    private final ContextHandlerCollection applications = new ContextHandlerCollection(true);
    private final LoadProbe load;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile NodeState state = NodeState.STARTING;
    private DataSourceRegistry dataSources;
    private LocalSessionStoreFactory localStores;
    private Optional<SessionStoreFactory> replicatingStores = Optional.empty();
    private ApplicationDeployer deployer;
    private WarDirectoryWatcher watcher;
    private Member self;

    private CohortNode(CohortConfig config, List<SessionStoreProvider> providers) {
        this.config = config;
        this.providers = List.copyOf(providers);
        this.metrics = new NodeMetrics(config.node().name());
        QueuedThreadPool threads = new QueuedThreadPool(config.node().maxThreads(), Math.min(8, config.node().maxThreads()));
        threads.setName("cohort-" + config.node().name());
        this.server = new Server(threads);
        server.setStopTimeout(config.node().gracefulStop().toMillis());
        server.setStopAtShutdown(false);
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        server.setErrorHandler(errors);
        server.addBean(new MBeanContainer(ManagementFactory.getPlatformMBeanServer()));
        DefaultSessionIdManager sessionIds = new DefaultSessionIdManager(server);
        sessionIds.setWorkerName(config.node().name()); // session ids end in .<node name>: the route
        HouseKeeper scavenger = new HouseKeeper();
        try {
            scavenger.setIntervalSec(SCAVENGE_INTERVAL_SECONDS); // Jetty's default is 10 minutes
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        sessionIds.setSessionHouseKeeper(scavenger);
        server.addBean(sessionIds, true);

        // joins the server only once the applications are deployed (acceptHttp)
        this.httpConnector = connector(HTTP, config.node().bindAddress(), config.node().httpPort());
        TrustedProxyForwarding forwarding = new TrustedProxyForwarding(config.node().trustedProxies());
        if (forwarding.trustsAnyone()) {
            httpConnector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().addCustomizer(forwarding);
        }
        this.adminConnector = config.admin().enabled()
                ? Optional.of(connector(ADMIN, config.admin().bindAddress(), config.admin().port()))
                : Optional.empty();
        adminConnector.ifPresent(server::addConnector);
        this.statistics = new StatisticsHandler(applications);
        this.load = new LoadProbe(threads::getBusyThreads, threads::getMaxThreads, statistics::getRequestsActive);

        Handler.Sequence root = new Handler.Sequence();
        adminConnector.ifPresent(c -> root.addHandler(adminContext()));
        root.addHandler(new GracefulHandler(statistics));
        server.setHandler(root);
        NodeMeters.bind(metrics.registry(), threads, statistics);
    }

    private ServerConnector connector(String name, String host, int port) {
        ServerConnector connector = new ServerConnector(server);
        connector.setName(name);
        connector.setHost(host);
        connector.setPort(port);
        // the node's idle-timeout (65 s by default) is above a balancer's (30 s), so the balancer closes an idle
        // connection first: a POST it sent on a connection the node was closing would fail and could not be retried
        connector.setIdleTimeout(config.node().idleTimeout().toMillis());
        // a burst of connections (a balancer reconnecting after a failover, clients while the WARs deploy) waits here
        connector.setAcceptQueueSize(AcceptQueue.SIZE);
        // neither a Server header nor "Powered by Jetty" on error pages: the version is nobody's business
        connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().setSendServerVersion(false);
        return connector;
    }

    /**
     * Whoever reaches the admin port can guess the bearer token as fast as the node answers, so a short one is worth
     * a warning at start (not a refusal: a test node may use one).
     */
    static Optional<String> shortTokenWarning(Secret token) {
        if (!token.isShort()) {
            return Optional.empty();
        }
        return Optional.of("the admin token from " + token.origin() + " has " + token.reveal().length() + " characters; "
                + "whoever reaches the admin port can try guesses of it. Use at least " + Secret.SHORTEST_QUIET_LENGTH
                + " random characters (e.g. openssl rand -base64 24)");
    }

    /** How long the node's connectors keep an idle connection, in milliseconds (as Jetty reports it). */
    long idleTimeoutMillis() {
        return httpConnector.getIdleTimeout();
    }

    /** How many connections the node's HTTP and admin ports hold until the node accepts them (as Jetty reports it). */
    List<Integer> acceptQueueSizes() {
        List<Integer> sizes = new java.util.ArrayList<>(List.of(httpConnector.getAcceptQueueSize()));
        adminConnector.ifPresent(admin -> sizes.add(admin.getAcceptQueueSize()));
        return sizes;
    }

    private ContextHandler adminContext() {
        config.admin().token().flatMap(CohortNode::shortTokenWarning).ifPresent(LOG::warn);
        Optional<String> token = config.admin().token().map(Secret::reveal);
        ContextHandler admin = new ContextHandler(new AdminHandler(new Operations(), token, config.admin().maxUpload().bytes()), "/");
        admin.setVirtualHosts(List.of("@" + ADMIN));
        return admin;
    }

    /**
     * Starts a node and returns when it serves; on failure everything started is stopped again. The
     * session store providers on the class path are found with {@link ServiceLoader}.
     */
    public static CohortNode start(CohortConfig config) throws Exception {
        List<SessionStoreProvider> providers = new java.util.ArrayList<>();
        ServiceLoader.load(SessionStoreProvider.class).forEach(providers::add);
        return start(config, providers);
    }

    /** Starts a node with the given session store providers (for embedding and tests). */
    public static CohortNode start(CohortConfig config, List<SessionStoreProvider> providers) throws Exception {
        CohortNode node = new CohortNode(config, providers);
        try {
            node.doStart();
            return node;
        } catch (Exception e) {
            node.stop();
            node.release(); // what the start began after a stop that overtook it
            throw e;
        }
    }

    private void doStart() throws Exception {
        String name = config.node().name();
        dataSources = new DataSourceRegistry(server, name, config.dataSources());
        httpConnector.open(); // bound, so its port is known; accepting waits for the applications (class comment)
        ensureStarting();
        server.start();
        self = new Member(name, name, config.node().host(), uri(httpConnector),
                adminConnector.map(CohortNode::uri).orElse(URI.create("http://unavailable:0")));
        localStores = new LocalSessionStoreFactory(self);
        ensureStarting();
        replicatingStores = startReplication(); // joins the cluster: can take seconds, in which a stop can come
        ensureStarting();

        Path work = config.node().workDir().resolve(name);
        ApplicationStoreBinder binder = new ApplicationStoreBinder(config, localStores, replicatingStores,
                metrics.registry());
        deployer = new ApplicationDeployer(server, applications, HTTP,
                app -> context -> binder.binderFor(app, context), work.resolve("apps"),
                config.node().gracefulStop(), Clock.systemUTC());
        cleanStaging(work.resolve("apps"));
        removeInterruptedUploads(config.node().webapps());
        // the watcher takes its first look before the WARs found are deployed (which takes seconds): a WAR copied in
        // meanwhile is then a change it reports, not part of what it took as already there
        startWatching().deployExisting();
        acceptHttp();
        LOG.info("Node {} (host {}) serving at {}, admin at {}, applications {}", name, self.host(),
                self.httpAddress(), self.adminAddress(),
                deployer.applications().stream().map(ApplicationInfo::contextPath).toList());
    }

    /** Starts the watcher of {@code webapps/}, unless {@link #stop} ran meanwhile (then the start fails). */
    private synchronized WarDirectoryWatcher startWatching() throws Exception {
        ensureStarting();
        watcher = new WarDirectoryWatcher(config.node().webapps(), deployer, config.node().scanInterval());
        watcher.start();
        return watcher;
    }

    /** Fails the start if {@link #stop} ran meanwhile (the start's failure path then releases what it began). */
    private synchronized void ensureStarting() {
        if (state != NodeState.STARTING) {
            throw new IllegalStateException("node " + config.node().name() + " was stopped while it started");
        }
    }

    /**
     * Starts accepting on the HTTP port and reports UP, unless {@link #stop} ran during the start: then the port
     * stays closed and the start fails.
     */
    private synchronized void acceptHttp() throws Exception {
        ensureStarting();
        server.addConnector(httpConnector);
        httpConnector.start();
        state = NodeState.UP;
    }

    private Optional<SessionStoreFactory> startReplication() throws Exception {
        if (config.cluster().isEmpty() || !config.cluster().get().enabled()) {
            return Optional.empty();
        }
        for (SessionStoreProvider provider : providers) {
            if (provider.supports(config)) {
                return Optional.of(provider.start(config, self, metrics.registry()));
            }
        }
        String protocol = config.cluster().get().protocol().getClass().getSimpleName()
                .replace("Protocol", "").toLowerCase(java.util.Locale.ROOT);
        throw new IllegalStateException("<cluster> uses the " + protocol + " protocol, but no session replication "
                + "provider on the class path implements it (providers found: " + providers.size() + ")");
    }

    private static void cleanStaging(Path staging) throws IOException {
        if (Files.exists(staging)) {
            try (var paths = Files.walk(staging)) {
                paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        Files.createDirectories(staging);
    }

    /**
     * Removes the uploads of the admin API ({@code .<name>-<random>.upload}, renamed to the WAR once it started) that
     * a node killed during an upload left in {@code webapps/}.
     */
    private static void removeInterruptedUploads(Path webapps) throws IOException {
        if (!Files.isDirectory(webapps)) {
            return;
        }
        try (var uploads = Files.newDirectoryStream(webapps, ".*" + UPLOAD_SUFFIX)) {
            for (Path upload : uploads) {
                LOG.info("Removing {}, an upload a stopped node did not finish", upload);
                Files.deleteIfExists(upload);
            }
        }
    }

    private static URI uri(ServerConnector connector) {
        String host = connector.getHost() == null || connector.getHost().equals("0.0.0.0")
                ? "127.0.0.1" : connector.getHost();
        return URI.create("http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + connector.getLocalPort());
    }

    /** This node as a cluster member, with the ports it actually bound. */
    public Member self() {
        return self;
    }

    public NodeState state() {
        return state;
    }

    public ApplicationDeployer deployer() {
        return deployer;
    }

    public NodeMetrics metrics() {
        return metrics;
    }

    /** Stops gracefully (see the class comment); idempotent, safe from any thread. */
    public synchronized void stop() {
        if (state == NodeState.STOPPED) {
            return;
        }
        state = NodeState.DRAINING;
        LOG.info("Node {} stopping (graceful, at most {})", config.node().name(), config.node().gracefulStop());
        release();
        quietly("metrics", metrics::close);
        state = NodeState.STOPPED;
        stopped.countDown();
        LOG.info("Node {} stopped", config.node().name());
    }

    /**
     * Stops and forgets each part of the node that runs, in order; a part already released is skipped, so a start
     * that a stop overtook can release what it began after the stop.
     */
    private synchronized void release() {
        WarDirectoryWatcher scanning = watcher;
        watcher = null;
        quietly("hot deployment", () -> { if (scanning != null) scanning.stop(); });
        quietly("server", server::stop);
        quietly("HTTP port", httpConnector::close); // bound but never accepting when the start did not finish
        quietly("applications", () -> { if (deployer != null) deployer.stopAll(); });
        Optional<SessionStoreFactory> replicating = replicatingStores;
        replicatingStores = Optional.empty();
        quietly("replication", () -> replicating.ifPresent(SessionStoreFactory::close));
        LocalSessionStoreFactory local = localStores;
        localStores = null;
        quietly("local sessions", () -> { if (local != null) local.close(); });
        DataSourceRegistry registry = dataSources;
        dataSources = null;
        quietly("data sources", () -> { if (registry != null) registry.close(); });
    }

    /** Blocks until the node has stopped. */
    public void awaitStopped() throws InterruptedException {
        stopped.await();
    }

    @Override
    public void close() {
        stop();
    }

    private interface Step {
        void run() throws Exception;
    }

    private static void quietly(String what, Step step) {
        try {
            step.run();
        } catch (Exception e) {
            LOG.warn("Stopping {} failed: {}", what, e.toString());
        }
    }

    /** The admin endpoints' view of the node. */
    private final class Operations implements AdminOperations {

        @Override
        public HealthReport health() {
            List<ApplicationInfo> apps = deployer == null ? List.of() : deployer.applications();
            return new HealthReport(state, config.node().name(), config.node().host(), load.measure(), apps.size(),
                    apps.stream().mapToLong(ApplicationInfo::sessions).sum(), members().size());
        }

        @Override
        public String scrapeMetrics() {
            return metrics.scrape();
        }

        @Override
        public List<ApplicationInfo> applications() {
            return deployer == null ? List.of() : deployer.applications();
        }

        @Override
        public List<Member> members() {
            if (self == null) {
                return List.of();
            }
            return replicatingStores.map(f -> f.clusterView().members()).orElse(List.of(self));
        }

        @Override
        public ApplicationInfo deploy(ApplicationName name, InputStream war) throws DeploymentException, IOException {
            requireServing();
            Path webapps = config.node().webapps();
            Files.createDirectories(webapps);
            Path upload = Files.createTempFile(webapps, "." + name.value() + "-", UPLOAD_SUFFIX);
            try {
                Files.copy(war, upload, StandardCopyOption.REPLACE_EXISTING);
                ApplicationInfo info = deployer.deploy(name, upload);
                // only a WAR that started replaces the one in webapps/ (the watcher sees the same bytes)
                Files.move(upload, webapps.resolve(name.warFileName()),
                        StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return info;
            } finally {
                Files.deleteIfExists(upload);
            }
        }

        @Override
        public boolean undeploy(ApplicationName name) throws IOException {
            requireServing();
            boolean undeployed = deployer.undeploy(name);
            if (!undeployed && state != NodeState.UP) {
                throw new NodeNotServingException(state); // the node's stop took the application down first
            }
            Files.deleteIfExists(config.node().webapps().resolve(name.warFileName()));
            return undeployed;
        }

        /** Deploying while the node starts (no deployer yet) or stops (its applications going) changes nothing. */
        private void requireServing() {
            NodeState now = state;
            if (now != NodeState.UP || deployer == null) {
                throw new NodeNotServingException(now);
            }
        }

        @Override
        public void stopGracefully() {
            Thread stopper = new Thread(CohortNode.this::stop, "cohort-stop");
            stopper.setDaemon(false);
            stopper.start();
        }
    }
}
