package io.cohort.cli.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A cluster of node processes on this machine, laid out by a {@link LocalClusterPlan}: {@link #start}
 * writes the configurations, starts one JVM per node with a fresh random admin token, waits until
 * all are UP and writes the {@link ClusterState} file; {@link #stop} stops every node and removes
 * the file. {@link #stop} may be called from a shutdown hook at any moment, also during
 * {@link #start}.
 */
public final class LocalCluster {

    /** Time added to the nodes' graceful-stop before they are killed: JVM exit and log flushing. */
    private static final Duration STOP_MARGIN = Duration.ofSeconds(5);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final LocalClusterPlan plan;
    private final String token = randomToken();
    private final NodeProcesses processes;
    private volatile ClusterState state;

    public LocalCluster(LocalClusterPlan plan, JavaCommand java) {
        this.plan = plan;
        Map<String, String> environment = new java.util.HashMap<>(Map.of(PlannedNode.TOKEN_ENV, token));
        plan.database().flatMap(ShopDatabase::password).ifPresent(p -> environment.put(ShopDatabase.PASSWORD_ENV, p));
        if (plan.replication().usesSecret()) {
            environment.put(ReplicationPlan.SECRET_ENV, randomToken()); // members authenticate; traffic encrypted
        }
        this.processes = new NodeProcesses(java, environment);
    }

    /**
     * Starts the nodes and returns when every one is UP. On failure the nodes already started are
     * stopped, and the exception names the node that failed.
     *
     * @param timeout how long all nodes together may take to come up
     * @throws IOException     if the cluster directory cannot be written, or a cluster already runs in it
     * @throws StartupFailure  if a node exited or did not come up in time
     */
    public ClusterState start(Duration timeout) throws IOException, StartupFailure, InterruptedException {
        refuseIfRunning(plan);
        List<PlannedNode> nodes = plan.write();
        try {
            List<ClusterState.Node> members = startNodes(nodes, timeout);
            state = new ClusterState(ClusterState.FORMAT, ProcessHandle.current().pid(), Instant.now().toString(),
                    token, members);
            state.write(plan.stateFile());
            return state;
        } catch (IOException | StartupFailure | RuntimeException e) {
            processes.stop(stopGrace());
            throw e;
        }
    }

    /**
     * Starts the nodes and waits for them. Nodes that form a group (peer or multicast replication)
     * start the first one alone: once it is UP it is the group's coordinator, and the others join it
     * at their first discovery round instead of racing each other to become coordinator, which can
     * cost several join rounds. It returns once every node sees all of them in its view: a node that
     * started a group of its own is waited for until the groups merged.
     */
    private List<ClusterState.Node> startNodes(List<PlannedNode> nodes, Duration timeout)
            throws IOException, StartupFailure, InterruptedException {
        ClusterStartup startup = new ClusterStartup();
        if (!plan.replication().formsGroup() || nodes.size() < 2) {
            return startup.awaitUp(processes.start(nodes), timeout);
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        List<NodeProcess> first = processes.start(nodes.subList(0, 1));
        startup.awaitUp(first, deadline, timeout, 1);
        List<NodeProcess> all = new ArrayList<>(first);
        all.addAll(processes.start(nodes.subList(1, nodes.size())));
        return startup.awaitUp(all, deadline, timeout, nodes.size());
    }

    /**
     * Refuses a directory another live {@code cohort cluster} runs in (its {@code cluster.json} names a process that is
     * still alive and began before the file was written). Call it before opening anything in the directory.
     *
     * @throws IOException naming the directory and the running process
     */
    static void refuseIfRunning(LocalClusterPlan plan) throws IOException {
        if (!Files.exists(plan.stateFile())) {
            return;
        }
        ClusterState previous;
        try {
            previous = ClusterState.read(plan.stateFile());
        } catch (IOException unreadable) {
            return; // a damaged file from a killed run: it is rewritten
        }
        if (previous.pid() != ProcessHandle.current().pid() && previous.clusterProcessAlive()) {
            throw new IOException("a cluster is already running in " + plan.dir() + " (process " + previous.pid()
                    + "); stop it first, or use another --dir");
        }
    }

    /** The running cluster, once {@link #start} has returned. */
    public Optional<ClusterState> state() {
        return Optional.ofNullable(state);
    }

    public List<NodeProcess> processes() {
        return processes.processes();
    }

    /** Completes when every node process has exited, for whatever reason. */
    public CompletableFuture<Void> allExited() {
        return CompletableFuture.allOf(processes.processes().stream().map(p -> p.process().onExit())
                .toArray(CompletableFuture[]::new));
    }

    /**
     * Stops every node gracefully (SIGTERM, bounded by graceful-stop; then SIGKILL) and removes the
     * state file. Idempotent; returns when no node process is left.
     */
    public void stop() throws InterruptedException {
        processes.stop(stopGrace());
        if (state == null) {
            return; // the state file, if any, is not ours (e.g. a cluster already running in the directory)
        }
        try {
            Files.deleteIfExists(plan.stateFile());
        } catch (IOException e) {
            // the cluster is stopped; a stale file is detected by the next start (dead pid)
        }
    }

    private Duration stopGrace() {
        return plan.longestStop().plus(STOP_MARGIN);
    }

    private static String randomToken() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
