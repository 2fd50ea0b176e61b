package io.cohort.cli.cluster;

import io.cohort.cli.CommandFailure;
import io.cohort.cli.DurationConverter;
import io.cohort.cli.PositiveDurationConverter;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort cluster}: a whole cluster on this machine, one JVM per node, in the foreground until
 * Ctrl-C or SIGTERM, which stop every node gracefully. See {@link LocalClusterPlan} for the layout
 * and {@link ClusterState} for the state file the other commands read.
 */
@Command(name = "cluster",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = {"Starts a cluster of N nodes on this machine, each in its own JVM and directory, and stays "
                + "in the foreground; Ctrl-C or SIGTERM stop all nodes gracefully.",
            "Unless --no-shop, every node serves the JPetStore shop at /jpetstore on a database shared by all "
                + "nodes: an embedded H2 server in this process (files in <dir>/h2), or --database.",
            "Each node emulates a host of its own (host1..hostN) unless --hosts says otherwise. The nodes' admin "
                + "token is random; it is in <dir>/cluster.json (mode 0600), which `cohort deploy`, `undeploy` "
                + "and `status` read."},
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort cluster --nodes 3                      (the JPetStore shop on an embedded H2 database)",
            "  cohort cluster --nodes 2 --no-shop --war app.war",
            "  cohort cluster --database jdbc:postgresql://127.0.0.1:5432/shop --database-user shop "
                    + "--database-password-env SHOP_DB_PASSWORD",
            "  cohort cluster --nodes 4 --hosts blade1,blade2 --base-port 8181 --admin-base-port 9181",
            "  cohort cluster --nodes 3 --base-port 0 --admin-base-port 0 --dir /tmp/c3",
            "",
            "Node logs: <dir>/nK/node.log. Configurations: <dir>/nK/cohort.xml (rewritten at every start)."})
public final class ClusterCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-n", "--nodes"}, paramLabel = "N", defaultValue = "2",
            description = "Number of nodes, 1 to " + LocalClusterPlan.MAX_NODES + " (default: ${DEFAULT-VALUE}).")
    int nodes;

    @Option(names = "--war", paramLabel = "PATH",
            description = "A WAR to copy into every node's webapps before start; repeatable.")
    List<Path> wars = new ArrayList<>();

    @Option(names = "--base-port", paramLabel = "PORT", defaultValue = "8081",
            description = "HTTP port of n1; nK gets base+K-1; 0 for free ports (default: ${DEFAULT-VALUE}).")
    int basePort;

    @Option(names = "--admin-base-port", paramLabel = "PORT", defaultValue = "9081",
            description = "Admin port of n1; nK gets base+K-1; 0 for free ports (default: ${DEFAULT-VALUE}).")
    int adminBasePort;

    @Option(names = "--dir", paramLabel = "DIR", defaultValue = "cohort-work",
            description = "The cluster's directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @ArgGroup(exclusive = true)
    Hosts hosts = new Hosts();

    @Mixin
    ShopOptions shop = new ShopOptions();

    @Option(names = "--pattern", paramLabel = "ABCD[wqN][bN][fN][sN]|none", defaultValue = "2211",
            description = "Session replication in the study's notation: protocol (1 multicast, 2 peer, 3 the shop's "
                    + "database), trigger "
                    + "(1 onSetAttribute, 2 onRequestEnd, 3 onShutdown), scope (1 modified, 2 all), delivery "
                    + "(1 async, 2 sync), wqN = write-quota N, bN = batch-size N (changes per group message; b1: "
                    + "each alone), fN = flush-interval N ms, sN = security (s2 authenticated and encrypted, the "
                    + "default: over TLS on peer; s1 authenticated; s0 neither; s3 TLS, peer only; s4 payload encryption "
                    + "without TLS); none = no replication (default: ${DEFAULT-VALUE}).")
    String pattern;

    @Option(names = "--replication-base-port", paramLabel = "PORT", defaultValue = "7800",
            description = "Replication port of n1 (peer: nK gets base+K-1; multicast: the group's port); 0 for "
                    + "free ports (default: ${DEFAULT-VALUE}).")
    int replicationBasePort;

    @Option(names = "--no-balancer", description = "Start no load balancers.")
    boolean noBalancer;

    @Option(names = "--balancer-base-port", paramLabel = "PORT", defaultValue = "8000",
            description = "Port of the first host's balancer; the next hosts' get the following ports; 0 for free "
                    + "ports (default: ${DEFAULT-VALUE}).")
    int balancerBasePort;

    @Option(names = "--balancer-admin-base-port", paramLabel = "PORT", defaultValue = "9000",
            description = "Admin port (health, metrics) of the first balancer; 0 for free ports "
                    + "(default: ${DEFAULT-VALUE}).")
    int balancerAdminBasePort;

    /** Looks up environment variables ({@code --database-password-env}); tests replace it. */
    java.util.function.Function<String, String> environment = System::getenv;

    private EmbeddedH2Server embeddedDatabase;
    private volatile LocalBalancers balancers;

    @Option(names = "--start-timeout", paramLabel = "DURATION", defaultValue = "120s",
            converter = PositiveDurationConverter.class,
            description = "How long all nodes may take to come up, above zero (default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    @Option(names = "--graceful-stop", paramLabel = "DURATION", defaultValue = "30s",
            converter = DurationConverter.class,
            description = "How long each node's stop may take before it is killed (default: ${DEFAULT-VALUE}).")
    Duration gracefulStop;

    /** Which host each node emulates. */
    static final class Hosts {
        @Option(names = "--host-per-node",
                description = "Each node emulates its own host, host1..hostN (the default).")
        boolean hostPerNode;

        @Option(names = "--hosts", paramLabel = "HOST", split = ",",
                description = "Host names the nodes take in turn, e.g. --hosts a,b puts n1,n3 on a and n2,n4 on b.")
        List<String> names;
    }

    @Override
    public Integer call() throws Exception {
        LocalClusterPlan plan = plan();
        try {
            // before the embedded database opens its files, which a running cluster's holds
            LocalCluster.refuseIfRunning(plan);
            if (shop.deploysShop() && plan.database().isEmpty()) {
                embeddedDatabase = EmbeddedH2Server.start(plan.dir().resolve("h2"));
                plan = plan.withDatabase(embeddedDatabase.database());
            }
        } catch (IOException e) {
            throw CommandFailure.failed(e.getMessage());
        }
        try {
            return run(plan);
        } finally {
            if (embeddedDatabase != null) {
                embeddedDatabase.close();
            }
        }
    }

    private int run(LocalClusterPlan plan) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        LocalCluster cluster = new LocalCluster(plan, JavaCommand.current());
        AtomicBoolean stopping = new AtomicBoolean();
        Thread shutdown = new Thread(() -> stop(cluster, stopping, out), "cohort-cluster-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);

        out.printf("Starting %d nodes in %s ...%n", plan.size(), plan.dir());
        ClusterState state;
        try {
            state = cluster.start(startTimeout);
        } catch (StartupFailure failure) {
            if (stopping.get()) {
                return ExitCode.FAILURE; // interrupted by Ctrl-C or SIGTERM: the nodes were stopped on purpose
            }
            err.println("cohort cluster: " + failure.getMessage());
            failure.logTail().forEach(line -> err.println("  | " + line));
            removeHook(shutdown);
            return ExitCode.FAILURE;
        } catch (IOException e) {
            removeHook(shutdown);
            throw CommandFailure.failed(e.getMessage());
        }
        if (!noBalancer) {
            try {
                balancers = LocalBalancers.start(state.nodes(), balancerBasePort, balancerAdminBasePort);
            } catch (Exception e) {
                err.println("cohort cluster: the balancers did not start: " + e.getMessage());
                removeHook(shutdown);
                cluster.stop();
                return ExitCode.FAILURE;
            }
        }
        new ClusterBanner(plan, state, balancers).print(out);
        cluster.processes().forEach(p -> p.process().onExit().thenRun(() -> {
            if (!stopping.get()) {
                err.printf("cohort cluster: node %s %s unexpectedly; see %s%n", p.node().name(), p.describeExit(),
                        p.node().logFile());
            }
        }));
        cluster.allExited().join();
        if (stopping.get()) {
            return ExitCode.OK; // the shutdown hook is stopping the cluster; the JVM exits after it
        }
        removeHook(shutdown);
        if (balancers != null) {
            balancers.close();
        }
        cluster.stop();
        err.println("cohort cluster: every node has exited");
        return ExitCode.FAILURE;
    }

    /** The plan the options describe; a {@link ParameterException} (exit code 2) if they make no sense. */
    LocalClusterPlan plan() {
        if (nodes < 1 || nodes > LocalClusterPlan.MAX_NODES) {
            throw new ParameterException(spec.commandLine(),
                    "--nodes must be from 1 to " + LocalClusterPlan.MAX_NODES + ": " + nodes);
        }
        for (Path war : wars) {
            if (!Files.isRegularFile(war) || !war.getFileName().toString().endsWith(".war")) {
                throw new ParameterException(spec.commandLine(), "--war " + war + ": no such .war file");
            }
        }
        List<Path> allWars = new ArrayList<>(wars);
        java.util.Optional<ShopDatabase> database = java.util.Optional.empty();
        java.util.Optional<Path> shopWar = java.util.Optional.empty();
        if (!shop.deploysShop()) {
            shop.optionWithoutShop().ifPresent(option -> {
                throw new ParameterException(spec.commandLine(), option + " is about the shop, which --no-shop leaves out");
            });
        } else {
            try {
                shopWar = java.util.Optional.of(shop.war());
                allWars.add(shopWar.get());
                database = shop.givenDatabase(environment);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
        }
        List<String> hostNames = hosts.names == null
                ? LocalClusterPlan.hostPerNode(nodes)
                : LocalClusterPlan.roundRobin(hosts.names, nodes);
        try {
            checkWarNames(shopWar);
            ReplicationPattern replication = ReplicationPattern.parse(pattern);
            if (replication.protocol().filter("database"::equals).isPresent() && !shop.deploysShop()) {
                throw new IllegalArgumentException("pattern " + pattern
                        + " keeps sessions in the shop's database: it needs the shop (leave out --no-shop)");
            }
            checkPorts(replication, new LinkedHashSet<>(hostNames).size());
            return new LocalClusterPlan(dir.toAbsolutePath().normalize(), hostNames, basePort, adminBasePort,
                    allWars.stream().map(w -> w.toAbsolutePath().normalize()).distinct().toList(), gracefulStop,
                    database, new ReplicationPlan(replication, replicationPorts(replication, nodes)));
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), "no free replication ports: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** FD_SOCK2 (peer stack without TLS) listens this far above its node's replication port ... */
    private static final int FAILURE_DETECTION_OFFSET = 100;
    /** ... or, when that port is taken, on one of the next ports (its port_range). */
    private static final int FAILURE_DETECTION_TRIES = 3;

    /**
     * The fixed ports the cluster will listen on: the nodes' HTTP, admin and peer replication ports with, unless the
     * peers talk over TLS, their failure detection's, and the balancers' (one per host). The multicast group's port is UDP, so it only has to be a port.
     */
    private void checkPorts(ReplicationPattern replication, int hostCount) {
        PortRanges tcp = new PortRanges()
                .add("--base-port", basePort, nodes, "node")
                .add("--admin-base-port", adminBasePort, nodes, "node");
        String protocol = replication.protocol().orElse("");
        if (replication.replicates() && protocol.equals("peer")) {
            tcp.add("--replication-base-port", replicationBasePort, nodes, "node");
            if (replicationBasePort != 0 && !replication.overTls()) { // FD_SOCK2: 100 above, trying 3 more ports
                tcp.add("--replication-base-port's failure detection, 100 above,", replicationBasePort + FAILURE_DETECTION_OFFSET,
                        nodes + FAILURE_DETECTION_TRIES, "node");
            }
        } else if (replication.replicates() && protocol.equals("multicast")) {
            new PortRanges().add("--replication-base-port", replicationBasePort, 1, "group").check();
        }
        if (!noBalancer) {
            tcp.add("--balancer-base-port", balancerBasePort, hostCount, "host")
                    .add("--balancer-admin-base-port", balancerAdminBasePort, hostCount, "host");
        }
        tcp.check();
    }

    /**
     * Every node's webapps gets each WAR under its file name, so two different files of one name would be one
     * application, the later replacing the earlier; the same file given twice is one WAR.
     */
    private void checkWarNames(java.util.Optional<Path> shopWar) {
        Map<String, Path> byName = new HashMap<>();
        shopWar.ifPresent(war -> byName.put(war.getFileName().toString(), war));
        for (Path war : wars) {
            Path normalized = war.toAbsolutePath().normalize();
            Path first = byName.putIfAbsent(normalized.getFileName().toString(), normalized);
            if (first != null && !first.equals(normalized)) {
                throw new IllegalArgumentException("--war " + war + ": a WAR named " + normalized.getFileName()
                        + " is already deployed from " + first + (shopWar.filter(first::equals).isPresent() ? " (the shop)" : "")
                        + "; each application needs a file name of its own");
            }
        }
    }

    private List<Integer> replicationPorts(ReplicationPattern replication, int count) throws java.io.IOException {
        if (!replication.replicates()) {
            return List.of();
        }
        if (replicationBasePort == 0) {
            return PresetPorts.pick(count); // below the ephemeral range: no connector can take one before its node
        }
        List<Integer> ports = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            ports.add(replicationBasePort + k);
        }
        return ports;
    }

    private void stop(LocalCluster cluster, AtomicBoolean stopping, PrintWriter out) {
        stopping.set(true);
        out.println("Stopping the cluster ...");
        out.flush();
        LocalBalancers running = balancers;
        if (running != null) {
            running.close();
        }
        try {
            cluster.stop();
            out.println("Cluster stopped.");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it stops the cluster
        }
    }
}
