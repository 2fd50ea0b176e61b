package io.cohort.bench.tomcat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the nodes of a {@link TomcatClusterPlan} as separate JVMs ({@link TomcatClusterNode}, stdout and
 * stderr in {@code <dir>/nK.log}) and waits until each answers {@code /health}; {@link #close} stops them
 * (SIGTERM, then SIGKILL after a grace period). Nodes also exit by themselves when this process dies.
 * A failed start stops the nodes already started and names the node, with the end of its log.
 */
public final class TomcatCluster implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(250);
    private static final String CLASS_PATH_RESOURCE = "runtime.classpath";
    /** Named, not referenced: the class is loaded only in node JVMs, which have Tomcat on their class path. */
    private static final String MAIN_CLASS = "io.cohort.bench.tomcat.TomcatClusterNode";

    private final List<TomcatNodeProcess> nodes;

    private TomcatCluster(List<TomcatNodeProcess> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * A running node.
     *
     * @param name    its name and jvmRoute
     * @param http    its HTTP base, e.g. {@code http://127.0.0.1:8081}
     * @param process its JVM
     * @param log     its log file
     */
    public record TomcatNodeProcess(String name, URI http, Process process, Path log) {

        /** The shop's base URI on this node. */
        public URI shop() {
            return URI.create(http + "/jpetstore");
        }

        /** The node's health answer, for balancers. */
        public URI health() {
            return URI.create(http + "/health");
        }

        /** The node's cluster channel bytes in the Prometheus text format ({@code tomcat_tribes_bytes_total}). */
        public URI metrics() {
            return URI.create(http + "/metrics");
        }

        public long pid() {
            return process.pid();
        }
    }

    /**
     * Starts every node and returns when all answer {@code /health}.
     *
     * @param plan      the cluster
     * @param classPath the node JVMs' class path, e.g. {@link #nodeClassPath()}
     * @param timeout   how long all nodes together may take to come up
     * @throws IOException if a node cannot be started, exits, or is not up in time
     */
    public static TomcatCluster start(TomcatClusterPlan plan, String classPath, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(plan.dir());
        List<TomcatNodeProcess> started = new ArrayList<>();
        try {
            for (int k = 0; k < plan.size(); k++) {
                started.add(startNode(plan, k, classPath));
            }
            long deadline = System.nanoTime() + timeout.toNanos();
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            for (TomcatNodeProcess node : started) {
                awaitHealthy(http, node, deadline, timeout);
            }
            return new TomcatCluster(started);
        } catch (IOException | InterruptedException | RuntimeException e) {
            stop(started);
            throw e;
        }
    }

    private static TomcatNodeProcess startNode(TomcatClusterPlan plan, int index, String classPath) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(plan.jvmOptions());
        command.add("-cp");
        command.add(classPath);
        command.add(MAIN_CLASS);
        command.addAll(plan.nodeArguments(index));
        Path log = plan.dir().resolve(TomcatClusterPlan.nodeName(index) + ".log").toAbsolutePath();
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        plan.dbPassword().ifPresent(p -> builder.environment().put(TomcatNodeOptions.PASSWORD_ENV, p));
        return new TomcatNodeProcess(TomcatClusterPlan.nodeName(index),
                URI.create("http://127.0.0.1:" + plan.httpPorts().get(index)), builder.start(), log);
    }

    private static void awaitHealthy(HttpClient http, TomcatNodeProcess node, long deadline, Duration timeout)
            throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(node.health()).timeout(Duration.ofSeconds(2)).GET().build();
        while (true) {
            if (!node.process().isAlive()) {
                throw new IOException("Tomcat node " + node.name() + " exited with code " + node.process().exitValue()
                        + " while starting; its log " + node.log() + " ends with:\n" + tail(node.log()));
            }
            try {
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("Tomcat node " + node.name() + " did not answer " + node.health() + " within "
                        + timeout + "; its log " + node.log() + " ends with:\n" + tail(node.log()));
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | UncheckedIOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    public List<TomcatNodeProcess> nodes() {
        return nodes;
    }

    /**
     * The class path of a node JVM as this module's build resolved it: this module's classes or jar, then
     * its runtime dependencies (the list the build writes next to these classes).
     */
    public static String nodeClassPath() throws IOException {
        URL listing = TomcatCluster.class.getResource(CLASS_PATH_RESOURCE);
        if (listing == null) {
            throw new IOException(CLASS_PATH_RESOURCE + " is missing next to " + TomcatCluster.class.getName()
                    + "; build bench/tomcat with Maven");
        }
        String dependencies;
        try (InputStream in = listing.openStream()) {
            dependencies = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
        try {
            Path own = Path.of(TomcatCluster.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return own + java.io.File.pathSeparator + dependencies;
        } catch (URISyntaxException e) {
            throw new IOException("cannot locate the classes of " + TomcatCluster.class.getName(), e);
        }
    }

    /** Stops every node: SIGTERM, then SIGKILL for those still running after a grace period. Idempotent. */
    @Override
    public void close() throws InterruptedException {
        stop(nodes);
    }

    private static void stop(List<TomcatNodeProcess> nodes) throws InterruptedException {
        nodes.stream().map(TomcatNodeProcess::process).filter(Process::isAlive).forEach(Process::destroy);
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (TomcatNodeProcess node : nodes) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (!node.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                node.process().destroyForcibly();
                node.process().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
