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
 * ({@link NodeAnnouncement}), its {@code /health} says UP and, for nodes that form a group, it sees the whole group
 * in its cluster view. A node that joined before the others answered its discovery is UP in a group of its own, and
 * JGroups merges the groups only later (seconds to tens of seconds): until then its sessions have no copies, so the
 * cluster is not ready. Fails as soon as a node process exits, or when the deadline passes (naming a node that
 * never saw the whole group, with what it saw). Between rounds it waits on the processes' exit, so a crash is noticed
 * at once.
 */
final class ClusterStartup {

    private static final Duration ROUND = Duration.ofMillis(100);
    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(2);

    private final AdminClient admin = new AdminClient(HEALTH_TIMEOUT);

    /** The members in the order of {@code processes}, once all are UP within {@code timeout} (no group to wait for). */
    List<ClusterState.Node> awaitUp(List<NodeProcess> processes, Duration timeout)
            throws StartupFailure, InterruptedException {
        return awaitUp(processes, System.nanoTime() + timeout.toNanos(), timeout, 0);
    }

    /**
     * The members in the order of {@code processes}, once all are UP before {@code deadline}
     * ({@link System#nanoTime()}) and each sees at least {@code groupSize} members in its cluster view (0: the nodes
     * form no group); {@code timeout} is the whole budget the deadline came from, as a failure names it.
     */
    List<ClusterState.Node> awaitUp(List<NodeProcess> processes, long deadline, Duration timeout, int groupSize)
            throws StartupFailure, InterruptedException {
        Map<NodeProcess, ClusterState.Node> up = new LinkedHashMap<>();
        Map<NodeProcess, Integer> partial = new LinkedHashMap<>();
        while (true) {
            List<NodeProcess> waiting = new ArrayList<>();
            for (NodeProcess process : processes) {
                if (!up.containsKey(process)) {
                    serving(process, groupSize, partial).ifPresentOrElse(node -> up.put(process, node), () -> waiting.add(process));
                }
            }
            if (waiting.isEmpty()) {
                return processes.stream().map(up::get).toList();
            }
            if (System.nanoTime() - deadline > 0) {
                NodeProcess late = waiting.get(0);
                Integer seen = partial.get(late);
                throw new StartupFailure(late.node(), seen == null ? "did not report UP within " + ConfigDuration.format(timeout)
                        : "is UP but saw " + seen + " of the " + groupSize + " nodes in its cluster view within "
                        + ConfigDuration.format(timeout) + " (the nodes did not form one group; see the nodes' logs)");
            }
            awaitAnyExit(waiting);
        }
    }

    /**
     * The node, once it serves and sees {@code groupSize} members; while it is UP with fewer, how many it saw is noted
     * in {@code partial}.
     */
    private Optional<ClusterState.Node> serving(NodeProcess process, int groupSize, Map<NodeProcess, Integer> partial)
            throws StartupFailure, InterruptedException {
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
                partial.remove(process);
                return Optional.empty();
            }
            if (health.members() < groupSize) {
                partial.put(process, health.members());
                return Optional.empty();
            }
            return Optional.of(new ClusterState.Node(node.name(), node.host(), announced.http(), announced.admin(),
                    process.pid(), node.logFile().toString()));
        } catch (IOException | ExecutionException e) {
            partial.remove(process);
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
