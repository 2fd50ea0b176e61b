package io.cohort.node.deploy;

import io.cohort.session.jetty.CohortSessionCache;
import io.cohort.session.jetty.StoreBinding;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ContextHandlerCollection;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.session.SessionCache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deploys, redeploys and undeploys WARs on a running node.
 *
 * <p>A new version is started completely before it replaces the old one, so a WAR that fails to
 * start leaves the old version serving. The swap is one atomic change of the context mapping; the
 * old version then finishes its in-flight requests (bounded by the drain timeout) and stops, which
 * hands its sessions to the session store. Until then a request that reaches the new version for a
 * session the old version holds waits for that hand-over ({@link HandoverGate}). Other applications
 * are never touched. Each version runs from a private staged copy of its WAR, so the file in
 * {@code webapps/} can be replaced at any time.
 *
 * <p>Thread-safe; deployments are serialized.
 */
public final class ApplicationDeployer {

    private static final Logger LOG = LoggerFactory.getLogger(ApplicationDeployer.class);

    private final Server server;
    private final ContextHandlerCollection contexts;
    private final WebAppFactory factory;
    private final Function<ApplicationName, Function<WebAppContext, StoreBinding.Binder>> binders;
    private final Path stagingRoot;
    private final Duration drainTimeout;
    private final Clock clock;
    private final Map<ApplicationName, DeployedApplication> deployed = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();
    private final Object lock = new Object();
    /** Set by {@link #stopAll()}, under {@link #lock}: no deploy after the node began to stop. */
    private boolean stopped;

    /**
     * @param server the node's server (started)
     * @param contexts the collection applications are mapped in
     * @param connectorName applications are served only on this connector
     * @param binders for each application, how its session store is chosen when it starts
     * @param stagingRoot private directory for staged WARs and unpacked applications
     * @param drainTimeout how long a replaced or removed version may finish in-flight requests
     */
    public ApplicationDeployer(Server server, ContextHandlerCollection contexts, String connectorName,
            Function<ApplicationName, Function<WebAppContext, StoreBinding.Binder>> binders, Path stagingRoot,
            Duration drainTimeout, Clock clock) {
        this.server = server;
        this.contexts = contexts;
        this.factory = new WebAppFactory(connectorName);
        this.binders = binders;
        this.stagingRoot = stagingRoot;
        this.drainTimeout = drainTimeout;
        this.clock = clock;
    }

    /**
     * Deploys the WAR, or redeploys its application if this WAR differs from the version serving.
     * Returns when the new version serves.
     */
    public ApplicationInfo deploy(Path war) throws DeploymentException {
        try {
            return deploy(ApplicationName.ofWar(war), war);
        } catch (IllegalArgumentException e) {
            throw new DeploymentException(e.getMessage(), e);
        }
    }

    /** Deploys {@code war} (whatever its file name) as the application {@code name}. */
    public ApplicationInfo deploy(ApplicationName name, Path war) throws DeploymentException {
        synchronized (lock) {
            if (stopped) {
                throw new DeploymentException(name + " was not deployed: the node is stopping");
            }
            String sha = sha256(war);
            DeployedApplication current = deployed.get(name);
            if (current != null && current.info().warSha256().equals(sha)) {
                return current.info();
            }
            DeployedApplication next = start(name, war, sha, current);
            swap(current, next);
            deployed.put(name, next);
            LOG.info("{} {} at {} (sha256 {})", current == null ? "Deployed" : "Redeployed", name,
                    name.contextPath(), sha.substring(0, 12));
            if (current != null) {
                try {
                    retire(current);
                } finally {
                    if (next.handler().getHandler() instanceof HandoverGate gate) {
                        gate.handedOver();
                    }
                }
            }
            return next.info();
        }
    }

    /** Removes the application; returns false if it was not deployed. */
    public boolean undeploy(ApplicationName name) {
        synchronized (lock) {
            DeployedApplication current = deployed.remove(name);
            if (current == null) {
                return false;
            }
            swap(current, null);
            retire(current);
            LOG.info("Undeployed {}", name);
            return true;
        }
    }

    public List<ApplicationInfo> applications() {
        return deployed.values().stream().map(DeployedApplication::info)
                .sorted(Comparator.comparing(ApplicationInfo::name)).toList();
    }

    public Optional<ApplicationInfo> application(ApplicationName name) {
        return Optional.ofNullable(deployed.get(name)).map(DeployedApplication::info);
    }

    /**
     * Stops every application (their sessions go to the store); used when the node stops. A deploy that comes after
     * (the admin API or the directory watcher racing with the stop) is refused, so nothing is left running.
     */
    public void stopAll() {
        synchronized (lock) {
            stopped = true;
            for (ApplicationName name : new ArrayList<>(deployed.keySet())) {
                DeployedApplication app = deployed.remove(name);
                swap(app, null);
                retire(app);
            }
        }
    }

    /** Starts a version of the application; {@code previous} (or null) is the version it will replace. */
    private DeployedApplication start(ApplicationName name, Path war, String sha, DeployedApplication previous)
            throws DeploymentException {
        Path staging = stagingRoot.resolve(name.value() + "-" + sequence.incrementAndGet());
        GracefulHandler handler = null;
        try {
            Files.createDirectories(staging.resolve("tmp"));
            Path staged = Files.copy(war, staging.resolve(name.warFileName()), StandardCopyOption.REPLACE_EXISTING);
            if (!sha.equals(sha256(staged))) {
                throw new DeploymentException(war + " changed while it was being deployed; will retry when it is stable");
            }
            WebAppContext context = factory.create(name, staged, staging.resolve("tmp"), binders.apply(name));
            // the old version drains for at most the drain timeout, then its stop hands its sessions over (bounded
            // by the same timeout); until then requests for the sessions it holds wait
            handler = new GracefulHandler(previous == null ? context
                    : new HandoverGate(context, predecessor(previous), drainTimeout.multipliedBy(2)));
            handler.setServer(server);
            handler.start();
            if (!context.isAvailable()) {
                throw new DeploymentException(name + " did not start: the web application is unavailable (see the log)");
            }
            return new DeployedApplication(name, handler, context, staging, sha, clock.instant());
        } catch (DeploymentException e) {
            abandon(name, handler, staging);
            throw e;
        } catch (Exception e) {
            abandon(name, handler, staging);
            throw new DeploymentException(name + " did not start: " + e.getMessage(), e);
        }
    }

    /**
     * A version that failed to start may have started part of itself (its session store, listeners that ran, its
     * class loader): all of it is stopped, so nothing of it keeps running, replicating or holding memory beside the
     * version that goes on serving.
     */
    private static void abandon(ApplicationName name, GracefulHandler handler, Path staging) {
        if (handler != null) {
            try {
                handler.stop();
            } catch (Exception e) {
                LOG.warn("{}: stopping the version that failed to start failed: {}", name, e.toString());
            }
        }
        deleteQuietly(staging);
    }

    /** The version {@code app} as the gate of the version replacing it sees it. */
    private static HandoverGate.Predecessor predecessor(DeployedApplication app) {
        return new HandoverGate.Predecessor() {
            @Override
            public boolean holds(String id) {
                return ApplicationDeployer.holds(app, id);
            }

            @Override
            public java.util.concurrent.CompletionStage<Void> handOver(String id) {
                return app.context().getSessionHandler().getSessionCache() instanceof CohortSessionCache cohort
                        ? cohort.handOver(id)
                        : new java.util.concurrent.CompletableFuture<>(); // a plain cache hands over only at its stop
            }
        };
    }

    /**
     * Whether the version holds the session with this id (without route) in memory, or held it when it began to hand
     * its sessions over: until the hand-over is done the store may not have the session's latest state.
     */
    private static boolean holds(DeployedApplication app, String sessionId) {
        try {
            SessionCache cache = app.context().getSessionHandler().getSessionCache();
            return cache instanceof CohortSessionCache cohort ? cohort.holdsOrHandsOver(sessionId) : cache.contains(sessionId);
        } catch (Exception e) {
            return false;
        }
    }

    /** Atomically replaces {@code out} by {@code in} in the context mapping (either may be null). */
    private void swap(DeployedApplication out, DeployedApplication in) {
        List<Handler> handlers = new ArrayList<>(contexts.getHandlers());
        if (out != null) {
            contexts.unmanage(out.handler()); // we stop it ourselves, after it drained
            handlers.remove(out.handler());
        }
        if (in != null) {
            handlers.add(in.handler());
        }
        contexts.setHandlers(handlers);
        if (in != null) {
            // managed, so the server's session id manager finds its sessions (invalidation across
            // contexts, expiry scavenging) and a server stop stops it after in-flight requests
            contexts.manage(in.handler());
        }
    }

    private void retire(DeployedApplication app) {
        try {
            app.handler().shutdown().get(drainTimeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.warn("{}: requests still running after {}; stopping it anyway", app.name(), drainTimeout);
        } catch (Exception e) {
            LOG.warn("{}: draining failed: {}", app.name(), e.toString());
        }
        try {
            app.handler().stop();
        } catch (Exception e) {
            LOG.warn("{}: stopping failed: {}", app.name(), e.toString());
        }
        deleteQuietly(app.staging());
    }

    static String sha256(Path file) throws DeploymentException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException e) {
            throw new DeploymentException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.debug("could not delete {}: {}", dir, e.toString());
        }
    }
}
