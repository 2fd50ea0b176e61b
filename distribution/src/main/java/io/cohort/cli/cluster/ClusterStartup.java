package io.cohort.cli.cluster;

import io.cohort.admin.HealthReport;
import io.cohort.admin.NodeState;
import io.cohort.cli.admin.AdminClient;
import io.cohort.cli.node.NodeAnnouncement;
import io.cohort.config.ConfigDuration;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waits until every node of a local cluster serves: it has announced its addresses
 * ({@link NodeAnnouncement}) and its {@code /health} says UP. Fails as soon as a node process exits,
 * or when the deadline passes. Between rounds it waits on the processes' exit, so a crash is noticed
 * at once.
 */
final class ClusterStartup {

    private static final Duration ROUND = Duration.ofMillis(100);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);

    private final AdminClient admin = new AdminClient(HEALTH_TIMEOUT);

    /** The members in the order of {@code processes}, once all are UP within {@code timeout}. */
    List<ClusterState.Node> awaitUp(List<NodeProcess> processes, Duration timeout)
            throws StartupFailure, InterruptedException {
        return awaitUp(processes, System.nanoTime() + timeout.toNanos(), timeout);
    }

    /**
     * The members in the order of {@code processes}, once all are UP before {@code deadline}
     * ({@link System#nanoTime()}); {@code timeout} is the whole budget the deadline came from, as a
     * failure names it.
     */
    List<ClusterState.Node> awaitUp(List<NodeProcess> processes, long deadline, Duration timeout)
            throws StartupFailure, InterruptedException {
        Map<NodeProcess, ClusterState.Node> up = new LinkedHashMap<>();
        while (true) {
            List<NodeProcess> waiting = new ArrayList<>();
            for (NodeProcess process : processes) {
                if (!up.containsKey(process)) {
                    serving(process).ifPresentOrElse(node -> up.put(process, node), () -> waiting.add(process));
                }
            }
            if (waiting.isEmpty()) {
                return processes.stream().map(up::get).toList();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StartupFailure(waiting.get(0).node(), "did not report UP within " + ConfigDuration.format(timeout));
            }
            awaitAnyExit(waiting);
        }
    }

    private Optional<ClusterState.Node> serving(NodeProcess process) throws StartupFailure, InterruptedException {
        PlannedNode node = process.node();
        if (!process.alive()) {
            throw new StartupFailure(node, "exited with code " + process.process().exitValue() + " before it served");
        }
        if (!Files.exists(node.readyFile())) {
            return Optional.empty();
        }
        try {
            NodeAnnouncement announced = NodeAnnouncement.read(node.readyFile());
            HealthReport health = admin.health(announced.admin()).get();
            if (health.status() != NodeState.UP) {
                return Optional.empty();
            }
            return Optional.of(new ClusterState.Node(node.name(), node.host(), announced.http(), announced.admin(),
                    process.pid(), node.logFile().toString()));
        } catch (IOException | ExecutionException e) {
            return Optional.empty(); // not ready yet; a dead process is caught in the next round
        }
    }

    private static void awaitAnyExit(List<NodeProcess> processes) throws InterruptedException {
        CompletableFuture<?>[] exits = processes.stream().map(p -> p.process().onExit()).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.anyOf(exits).get(ROUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException e) {
            // nobody exited in this round
        }
    }
}
