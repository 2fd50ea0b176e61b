package io.cohort.bench.tomcat;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A Tomcat peer cluster on this machine: node {@code K} (1-based) is named {@code nK} (its jvmRoute),
 * lives in {@code <dir>/nK} and serves on {@code httpPorts[K-1]}, with its Tribes receiver on
 * {@code receiverPorts[K-1]}; all on 127.0.0.1 and all deploying the same WAR against the same database.
 *
 * @param dir           the cluster's directory (node work directories and logs)
 * @param manager       DeltaManager or BackupManager
 * @param delivery      async or sync channel sends
 * @param httpPorts     one HTTP port per node
 * @param receiverPorts one cluster receiver port per node
 * @param war           the WAR every node deploys at {@code /jpetstore}
 * @param dbUrl         JDBC URL of the shop's database
 * @param dbUser        its user
 * @param dbPassword    its password, handed to the nodes in their environment
 * @param jvmOptions    options for each node JVM, e.g. {@code -Xmx512m}
 */
public record TomcatClusterPlan(Path dir, SessionReplication manager, Delivery delivery, List<Integer> httpPorts,
        List<Integer> receiverPorts, Path war, String dbUrl, String dbUser, Optional<String> dbPassword,
        List<String> jvmOptions) {

    public TomcatClusterPlan {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(delivery, "delivery");
        httpPorts = List.copyOf(httpPorts);
        receiverPorts = List.copyOf(receiverPorts);
        if (httpPorts.isEmpty() || httpPorts.size() != receiverPorts.size()) {
            throw new IllegalArgumentException("one HTTP port and one receiver port per node are needed, got "
                    + httpPorts.size() + " and " + receiverPorts.size());
        }
        Objects.requireNonNull(war, "war");
        Objects.requireNonNull(dbUrl, "dbUrl");
        Objects.requireNonNull(dbUser, "dbUser");
        Objects.requireNonNull(dbPassword, "dbPassword");
        jvmOptions = List.copyOf(jvmOptions);
    }

    public int size() {
        return httpPorts.size();
    }

    /** The command-line options of node {@code index} (0-based) for {@link TomcatClusterNode}. */
    List<String> nodeArguments(int index) {
        String members = String.join(",", receiverPorts.stream().map(p -> "127.0.0.1:" + p).toList());
        return List.of("--http-port", Integer.toString(httpPorts.get(index)), "--route", nodeName(index),
                "--manager", manager.argument(), "--delivery", delivery.argument(),
                "--receiver-port", Integer.toString(receiverPorts.get(index)), "--members", members,
                "--war", war.toAbsolutePath().toString(), "--work-dir", nodeDir(index).toString(),
                "--db-url", dbUrl, "--db-user", dbUser, "--exit-with-parent");
    }

    static String nodeName(int index) {
        return "n" + (index + 1);
    }

    Path nodeDir(int index) {
        return dir.resolve(nodeName(index)).toAbsolutePath();
    }
}
