package io.cohort.cli.cluster;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * What {@code cohort cluster} sets up, before anything runs: N nodes {@code n1..nN} in
 * {@code <dir>/n1..nN}, HTTP ports {@code basePort + K - 1}, admin ports {@code adminBasePort + K - 1}
 * (a base of 0 gives every node free ports, which the nodes announce when they serve), one host
 * per node unless told otherwise, and the same WARs in every node's webapps.
 *
 * @param dir           the cluster's directory
 * @param hosts         the host of each node, one per node
 * @param basePort      the first HTTP port, or 0
 * @param adminBasePort the first admin port, or 0
 * @param wars          WARs copied into every node's webapps, under their file names, which are distinct
 * @param gracefulStop  how long each node's stop may take
 * @param database      the shop's database, given to every node as {@code jdbc/jpetstore}
 * @param replication   how the nodes replicate sessions
 */
public record LocalClusterPlan(Path dir, List<String> hosts, int basePort, int adminBasePort, List<Path> wars,
        Duration gracefulStop, Optional<ShopDatabase> database, ReplicationPlan replication) {

    /** Most nodes one local cluster may have; each is a JVM. */
    public static final int MAX_NODES = 64;
    private static final int MAX_PORT = 65_535;
    /** The {@code hostName} type of cohort-config-1.xsd. */
    private static final Pattern HOST_NAME = Pattern.compile("[A-Za-z0-9_.:%\\[\\]-]{1,255}");

    public LocalClusterPlan {
        Objects.requireNonNull(dir, "dir");
        hosts = List.copyOf(hosts);
        wars = List.copyOf(wars);
        Objects.requireNonNull(gracefulStop, "gracefulStop");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(replication, "replication");
        if (replication.pattern().replicates() && replication.ports().size() != hosts.size()) {
            throw new IllegalArgumentException("one replication port per node is needed");
        }
        if (hosts.isEmpty() || hosts.size() > MAX_NODES) {
            throw new IllegalArgumentException("a local cluster has 1 to " + MAX_NODES + " nodes, not " + hosts.size());
        }
        for (String host : hosts) {
            if (!HOST_NAME.matcher(host).matches()) {
                throw new IllegalArgumentException("invalid host name '" + host
                        + "': use letters, digits and . _ - : % [ ]");
            }
        }
        if (wars.stream().map(war -> war.getFileName().toString()).distinct().count() != wars.size()) {
            // each is copied into webapps under its file name: a later one would replace an earlier one
            throw new IllegalArgumentException("two WARs have one file name: " + wars);
        }
        checkPorts("base port", basePort, hosts.size());
        checkPorts("admin base port", adminBasePort, hosts.size());
        if (basePort != 0 && adminBasePort != 0 && basePort < adminBasePort + hosts.size()
                && adminBasePort < basePort + hosts.size()) {
            throw new IllegalArgumentException("HTTP ports " + range(basePort, hosts.size()) + " and admin ports "
                    + range(adminBasePort, hosts.size()) + " overlap");
        }
    }

    /** A plan without a shop database. */
    public LocalClusterPlan(Path dir, List<String> hosts, int basePort, int adminBasePort, List<Path> wars,
            Duration gracefulStop) {
        this(dir, hosts, basePort, adminBasePort, wars, gracefulStop, Optional.empty(),
                new ReplicationPlan(ReplicationPattern.NONE, List.of()));
    }

    /** The same plan with the shop's database. */
    public LocalClusterPlan withDatabase(ShopDatabase shopDatabase) {
        return new LocalClusterPlan(dir, hosts, basePort, adminBasePort, wars, gracefulStop, Optional.of(shopDatabase),
                replication);
    }

    /** The same plan with another replication. */
    public LocalClusterPlan withReplication(ReplicationPlan plan) {
        return new LocalClusterPlan(dir, hosts, basePort, adminBasePort, wars, gracefulStop, database, plan);
    }

    /** {@code host1..hostN}: each node emulates a host of its own. */
    public static List<String> hostPerNode(int nodes) {
        return IntStream.rangeClosed(1, nodes).mapToObj(k -> "host" + k).toList();
    }

    /** Nodes take the given hosts in turn, e.g. 4 nodes on {@code a,b} are on a, b, a, b. */
    public static List<String> roundRobin(List<String> hosts, int nodes) {
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException("no hosts given");
        }
        return IntStream.range(0, nodes).mapToObj(k -> hosts.get(k % hosts.size())).toList();
    }

    public int size() {
        return hosts.size();
    }

    /**
     * The longest a node's graceful stop may take now: its requests get {@code gracefulStop} to finish, then each
     * application, one after another, gets {@code gracefulStop} again to hand its sessions over. The applications are
     * counted when asked: the WARs of the plan, or, if a node's {@code webapps/} holds more (deployed later with
     * {@code cohort deploy}), those.
     */
    public Duration longestStop() {
        long applications = wars.size();
        for (PlannedNode node : nodes()) {
            applications = Math.max(applications, warsIn(node.webapps()));
        }
        return gracefulStop.multipliedBy(1L + applications);
    }

    private static long warsIn(Path webapps) {
        try (DirectoryStream<Path> deployed = Files.newDirectoryStream(webapps, "*.war")) {
            long count = 0;
            for (Path ignored : deployed) {
                count++;
            }
            return count;
        } catch (IOException e) {
            return 0; // not written yet, or gone
        }
    }

    /** The cluster state file that {@code cohort deploy}, {@code undeploy} and {@code status} read. */
    public Path stateFile() {
        return dir.resolve(ClusterState.FILE_NAME);
    }

    public List<PlannedNode> nodes() {
        List<PlannedNode> nodes = new ArrayList<>();
        for (int k = 1; k <= size(); k++) {
            String name = "n" + k;
            nodes.add(new PlannedNode(name, hosts.get(k - 1), port(basePort, k), port(adminBasePort, k),
                    dir.resolve(name), gracefulStop, database, replication.configXml("local", k - 1)));
        }
        return nodes;
    }

    /**
     * Lays the cluster out on disk: each node's directory, configuration and webapps with the WARs.
     * Applications deployed earlier (they stay in webapps, as in any servlet container) remain.
     */
    public List<PlannedNode> write() throws IOException {
        for (Path war : wars) {
            if (!Files.isRegularFile(war)) {
                throw new IOException("no such WAR file: " + war);
            }
        }
        List<PlannedNode> nodes = nodes();
        for (PlannedNode node : nodes) {
            Files.createDirectories(node.webapps());
            Files.writeString(node.configFile(), node.configXml());
            Files.deleteIfExists(node.readyFile());
            for (Path war : wars) {
                Path copy = Files.createTempFile(node.webapps(), ".copy-", ".tmp");
                Files.copy(war, copy, StandardCopyOption.REPLACE_EXISTING);
                Files.move(copy, node.webapps().resolve(war.getFileName()), StandardCopyOption.REPLACE_EXISTING,
                        StandardCopyOption.ATOMIC_MOVE);
            }
        }
        return nodes;
    }

    private static int port(int base, int k) {
        return base == 0 ? 0 : base + k - 1;
    }

    private static void checkPorts(String what, int base, int count) {
        if (base != 0 && (base < 1 || base + count - 1 > MAX_PORT)) {
            throw new IllegalArgumentException(what + " " + base + " does not leave room for " + count
                    + " ports; use 1 to " + (MAX_PORT - count + 1) + ", or 0 for free ports");
        }
    }

    private static String range(int base, int count) {
        return base + "-" + (base + count - 1);
    }
}
