package io.cohort.bench.peers;

import io.cohort.cli.cluster.ShopDatabase;
import io.cohort.net.PresetPorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plain-Jetty JDBC session baseline as a system under test: {@code size} {@link JettyJdbcNode} JVMs
 * ({@code n1..nN} in {@code <dir>/nK}, logs {@code <dir>/nK.log}) on the shop's database behind a front.
 * Node n1 is started alone first: Jetty creates its session table on first start, and two nodes doing so
 * at once could both try; the others then start together.
 */
public final class JettyJdbcSystem extends PeerSystem {


    private final NodeJvms jvms;

    private JettyJdbcSystem(NodeJvms jvms, FrontDoor front, List<BackendNode> nodes, String description) {
        super(description, front, nodes);
        this.jvms = jvms;
    }

    public static JettyJdbcSystem start(Path dir, int size, Path war, ShopDatabase database, FrontKind frontKind,
            int frontPort, Duration timeout) throws Exception {
        return start(dir, size, war, database, List.of(), frontKind, frontPort, timeout);
    }

    /**
     * As {@link #start(Path, int, Path, ShopDatabase, FrontKind, int, Duration)}, with JVM options for every node
     * (e.g. the heap and the shop's data-set properties).
     */
    public static JettyJdbcSystem start(Path dir, int size, Path war, ShopDatabase database, List<String> jvmOptions,
            FrontKind frontKind, int frontPort, Duration timeout) throws Exception {
        if (size < 1) {
            throw new IllegalArgumentException("a system has at least one node, not " + size);
        }
        NodeJvms jvms = new NodeJvms(jvmOptions);
        try {
            Map<String, String> environment = new HashMap<>();
            database.password().ifPresent(p -> environment.put(JettyJdbcNodeOptions.PASSWORD_ENV, p));
            List<NodeJvms.NodeJvm> started = new ArrayList<>();
            for (int k = 1; k <= size; k++) {
                String name = "n" + k;
                int port = PresetPorts.one();
                JettyJdbcNodeOptions options = new JettyJdbcNodeOptions(port, name, war.toAbsolutePath(),
                        dir.resolve(name).toAbsolutePath(), database.url(), database.user(), true);
                started.add(jvms.start(name, JettyJdbcNode.class.getName(), options.arguments(), environment,
                        URI.create("http://127.0.0.1:" + port + "/health"), dir.resolve(name + ".log")));
                if (k == 1) {
                    NodeJvms.awaitHealthy(started.get(0), timeout);
                }
            }
            for (NodeJvms.NodeJvm node : started) {
                NodeJvms.awaitHealthy(node, timeout);
            }
            List<BackendNode> nodes = started.stream()
                    .map(n -> new BackendNode(n.name(), URI.create("http://" + n.health().getAuthority()), n.health(), n.process().pid(),
                            Optional.empty()))
                    .toList();
            FrontDoor front = FrontDoor.start(frontKind, nodes, frontPort, dir.resolve("front"), Duration.ofSeconds(30));
            return new JettyJdbcSystem(jvms, front, nodes,
                    "jetty-jdbc x" + size + " behind " + frontKind.label());
        } catch (Exception e) {
            jvms.close();
            throw e;
        }
    }

    @Override
    protected void stopNodes() throws InterruptedException {
        jvms.close();
    }
}
