package io.cohort.cli.cluster;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node JVMs of a local cluster: each runs {@code cohort node --config <home>/cohort.xml} in its
 * home directory, with stdout and stderr in {@code <home>/node.log}, and stops by itself if this
 * process dies without stopping it. Thread-safe: a shutdown hook may {@link #stop} while another
 * thread is still {@link #start starting} nodes; nodes started after a stop are stopped at once.
 */
public final class NodeProcesses {

    private static final Logger LOG = LoggerFactory.getLogger(NodeProcesses.class);
    /** How long a node gets after SIGKILL to be gone (the kernel is quick; this only bounds the wait). */
    private static final Duration AFTER_KILL = Duration.ofSeconds(5);

    private final JavaCommand java;
    private final Map<String, String> environment;
    private final List<NodeProcess> started = new ArrayList<>();
    private boolean stopped;

    /**
     * @param java        how to start a JVM running the cohort command
     * @param environment variables added to the nodes' environment (e.g. the admin token)
     */
    public NodeProcesses(JavaCommand java, Map<String, String> environment) {
        this.java = java;
        this.environment = Map.copyOf(environment);
    }

    /** Starts one JVM per node, without waiting for them to serve. */
    public List<NodeProcess> start(List<PlannedNode> nodes) throws IOException {
        List<NodeProcess> processes = new ArrayList<>();
        for (PlannedNode node : nodes) {
            processes.add(start(node));
        }
        return processes;
    }

    private synchronized NodeProcess start(PlannedNode node) throws IOException {
        if (stopped) {
            throw new IOException("the cluster is stopping");
        }
        ProcessBuilder builder = new ProcessBuilder(java.command(List.of("node",
                "--config", node.configFile().toString(),
                "--ready-file", node.readyFile().toString(),
                "--exit-with-parent=" + ProcessHandle.current().pid())))
                .directory(node.home().toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.to(node.logFile().toFile()));
        builder.environment().putAll(environment);
        NodeProcess process = new NodeProcess(node, builder.start());
        started.add(process);
        LOG.debug("Started node {} as process {}", node.name(), process.pid());
        return process;
    }

    public synchronized List<NodeProcess> processes() {
        return List.copyOf(started);
    }

    /**
     * Stops every node: SIGTERM to all (each stops gracefully, bounded by its {@code graceful-stop}),
     * waits up to {@code grace} for all of them together, then SIGKILLs those still running. Returns
     * when no node process is left, or after a further few seconds if the kernel is slow to reap.
     * Idempotent.
     */
    public void stop(Duration grace) throws InterruptedException {
        List<NodeProcess> processes;
        synchronized (this) {
            stopped = true;
            processes = List.copyOf(started);
        }
        processes.stream().filter(NodeProcess::alive).forEach(p -> p.process().destroy());
        long deadline = System.nanoTime() + grace.toNanos();
        for (NodeProcess process : processes) {
            long left = Math.max(0, deadline - System.nanoTime());
            if (!process.process().waitFor(left, TimeUnit.NANOSECONDS)) {
                LOG.warn("Node {} (pid {}) did not stop within {}; killing it", process.node().name(), process.pid(),
                        grace);
                process.process().destroyForcibly();
            }
        }
        for (NodeProcess process : processes) {
            if (!process.process().waitFor(AFTER_KILL.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.error("Node {} (pid {}) is still running after SIGKILL", process.node().name(), process.pid());
            }
        }
    }
}
