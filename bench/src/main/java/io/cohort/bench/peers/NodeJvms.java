package io.cohort.bench.peers;

import io.cohort.cli.cluster.JavaCommand;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Node JVMs of a peer system started from this JVM's java and class path (plus its forwardable options):
 * each with its log file, waited for on its health URI, stopped with SIGTERM then SIGKILL. Thread-safe.
 */
final class NodeJvms implements AutoCloseable {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(250);

    /** A started node JVM. */
    record NodeJvm(String name, Process process, URI health, Path log) {
    }

    private final JavaCommand java = JavaCommand.current();
    private final List<String> extraOptions;
    private final List<NodeJvm> started = new ArrayList<>();

    /** @param extraOptions JVM options added after this JVM's forwardable ones, e.g. a heap size */
    NodeJvms(List<String> extraOptions) {
        this.extraOptions = List.copyOf(extraOptions);
    }

    /** Starts {@code mainClass} with the arguments and environment, output to {@code log}. */
    synchronized NodeJvm start(String name, String mainClass, List<String> arguments, Map<String, String> environment,
            URI health, Path log) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(java.java().toString());
        command.addAll(java.jvmOptions());
        command.addAll(extraOptions);
        command.add("-cp");
        command.add(java.classPath());
        command.add(mainClass);
        command.addAll(arguments);
        Files.createDirectories(log.toAbsolutePath().getParent());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().putAll(environment);
        NodeJvm node = new NodeJvm(name, builder.start(), health, log);
        started.add(node);
        return node;
    }

    /** Waits until the node answers 200 on its health URI; fails at once if it exits. */
    static void awaitHealthy(NodeJvm node, Duration timeout) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request = HttpRequest.newBuilder(node.health()).timeout(Duration.ofSeconds(2)).GET().build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!node.process().isAlive()) {
                throw new IOException("node " + node.name() + " exited with code " + node.process().exitValue()
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
                throw new IOException("node " + node.name() + " did not answer " + node.health() + " within " + timeout
                        + "; its log " + node.log() + " ends with:\n" + tail(node.log()));
            }
            Thread.sleep(POLL.toMillis());
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM to every node, SIGKILL to those still running after a grace period. Idempotent. */
    @Override
    public void close() throws InterruptedException {
        List<NodeJvm> nodes;
        synchronized (this) {
            nodes = List.copyOf(started);
        }
        nodes.stream().map(NodeJvm::process).filter(Process::isAlive).forEach(Process::destroy);
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (NodeJvm node : nodes) {
            if (!node.process().waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                node.process().destroyForcibly();
                node.process().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
