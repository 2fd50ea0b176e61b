package io.cohort.bench.study;

import io.cohort.bench.study.run.BenchRun;
import io.cohort.bench.study.run.BenchRun.Target;
import io.cohort.bench.study.run.DataSetSize;
import io.cohort.bench.study.run.LoadLevel;
import io.cohort.bench.study.run.PeerPlan;
import io.cohort.bench.study.run.RunPlan;
import io.cohort.bench.study.run.StudyPlan;
import io.cohort.cli.DurationConverter;
import io.cohort.cli.ExitCode;
import io.cohort.cli.cluster.ShopDatabase;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code cohort bench}: reruns the 2007 study on this machine. Starts a local cluster per experiment (or loads an
 * existing one), drives the shop with closed-loop virtual users, and writes a run folder
 * ({@link io.cohort.bench.study.model}) with every measure; the report is rendered from that folder at the end.
 */
@Command(name = "cohort bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Reruns the study: for each experiment starts a local cluster (N node JVMs, one balancer per "
                + "emulated host with roundrobin:local, the shop on a shared database with the benchmark data set), "
                + "loads it with closed-loop virtual users (sign on, search, pick, add to cart 1-5 times, check out, "
                + "sign off; think time 300 ms ± 100 ms), checks every session, samples node CPU and replication "
                + "traffic, and stops everything it started.",
            "Without --quick or --full, the options start from the quick preset's values."},
        footerHeading = "%nExamples:%n",
        footer = {"  cohort bench --quick",
            "  cohort bench --full --out bench/results/study-full",
            "  cohort bench --peers --out bench/results/peer-comparison",
            "  cohort bench --nodes 2 --patterns none,2211 --duration 10s --warmup 5s",
            "  cohort bench --failover 2211,2212 --patterns none --nodes 2",
            "  cohort bench --nodes 2 --load high --patterns none,2211 --rounds 5 --failover none --warmup 90s",
            "  cohort bench --database jdbc:postgresql://127.0.0.1:5432/test --patterns none,3211",
            "  cohort bench --target-balancers http://lb1:8000,http://lb2:8000 --node-metrics "
                    + "http://n1:9081/metrics,http://n2:9081/metrics --nodes 2 --patterns 2211"})
public final class BenchCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @ArgGroup(exclusive = true)
    PresetChoice presetChoice = new PresetChoice();

    /** The two presets. */
    static final class PresetChoice {
        @Option(names = "--quick", description = "Every pattern at 2 nodes plus the 1-node baseline at medium load, "
                + "4 s warm-up, 8 s measured, failover for 2211 and 2212 (16 s windows); 17 experiments.")
        boolean quick;

        @Option(names = "--full", description = "The study's matrix: nodes 1,2,4 at medium and high load, every "
                + "pattern, 30 s warm-up, 60 s measured, failover for 2211 and 2212; several hours.")
        boolean full;

        @Option(names = "--peers", description = "The peer comparison at 2 nodes and the high load: Cohort (none, "
                + "2211, 2212, 3211) vs Tomcat 11 (StandardManager, DeltaManager, BackupManager) vs Jetty's JDBC "
                + "session store, Cohort's balancer vs HAProxy on the same 2211 nodes, failover of cohort 2211/2212 and "
                + "tomcat delta/backup; 4 s warm-up, 8 s measured (16 s failover); 13 experiments, ~12 minutes.")
        boolean peers;
    }

    @Option(names = "--nodes", split = ",", paramLabel = "N[,N...]", description = "Node counts, e.g. 1,2,4.")
    List<Integer> nodes;

    @Option(names = "--load", split = ",", paramLabel = "medium|high|USERS",
            description = "Virtual users per node: medium (" + LoadLevel.MEDIUM_USERS + "), high ("
                    + LoadLevel.HIGH_USERS + ") or a number; several with commas.")
    List<String> loads;

    @Option(names = "--patterns", split = ",", paramLabel = "PATTERN[,...]",
            description = "Replication patterns (none, 2211, 2212, 2111, 2112, 2121, 2122, 2221, 2222, 1211, 2311, "
                    + "2211wq2, 2211wq3, 3211, ...).")
    List<String> patterns;

    @Option(names = "--failover", split = ",", arity = "0..1", paramLabel = "PATTERN[,...]",
            fallbackValue = "2211,2212",
            description = "Failover experiments: SIGKILL one node in the middle of the window (default patterns "
                    + "2211,2212); --failover none for no failover experiment.")
    List<String> failover;

    @Option(names = "--warmup", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Warm-up of each experiment, e.g. 5s.")
    Duration warmup;

    @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Measurement window of each experiment, e.g. 10s.")
    Duration duration;

    @Option(names = "--failover-duration", paramLabel = "DURATION", converter = DurationConverter.class,
            description = "Measurement window of the failover experiments (default: twice --duration).")
    Duration failoverDuration;

    @Option(names = "--rounds", paramLabel = "N",
            description = "Measure each pattern at 2 or more nodes N times, round after round, every second round in "
                    + "reverse order; the targets then judge the median of the per-round ratios, and the report "
                    + "lists every round (default: 1). For a machine whose speed drifts between experiments.")
    Integer rounds;

    @Option(names = "--accounts", paramLabel = "N", description = "Benchmark accounts (quick: 2000, full: 20000).")
    Integer accounts;

    @Option(names = "--products", paramLabel = "N", description = "Benchmark products (quick: 10000, full: 50000).")
    Integer products;

    @Option(names = "--database", paramLabel = "JDBC-URL",
            description = "The shop's database, e.g. jdbc:postgresql://127.0.0.1:5432/test (default: an embedded H2 "
                    + "server in this process, data set loaded once for the whole run).")
    String databaseUrl;

    @Option(names = "--database-user", paramLabel = "USER", defaultValue = "postgres",
            description = "User for --database (default: ${DEFAULT-VALUE}).")
    String databaseUser;

    @Option(names = "--database-password-env", paramLabel = "VAR",
            description = "Environment variable holding the password for --database.")
    String databasePasswordEnv;

    @Option(names = "--target-balancers", split = ",", paramLabel = "URL[,URL...]",
            description = "Load an existing cluster through these balancers instead of starting clusters.")
    List<URI> targetBalancers;

    @Option(names = "--node-metrics", split = ",", paramLabel = "URL[,URL...]",
            description = "With --target-balancers: each node's admin /metrics, for CPU and replication traffic.")
    List<URI> nodeMetrics = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
            description = "The run folder (default: bench/results/study-<timestamp> under the current directory).")
    Path out;

    @Option(names = "--cohort-home", paramLabel = "DIR",
            description = "The built distribution the nodes run from (default: distribution/target/cohort of the "
                    + "source tree).")
    Path cohortHome;

    @Option(names = "--shop-war", paramLabel = "PATH",
            description = "The JPetStore WAR (default: webapps/jpetstore.war of --cohort-home).")
    Path shopWar;

    @Option(names = "--start-timeout", paramLabel = "DURATION", converter = DurationConverter.class,
            defaultValue = "180s", description = "How long a cluster may take to come up (default: ${DEFAULT-VALUE}).")
    Duration startTimeout;

    @Option(names = "--keep-work", description = "Keep <out>/work (cluster directories, node logs) also when every "
            + "experiment succeeded.")
    boolean keepWork;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "2007",
            description = "Seed of the virtual users' random choices (default: ${DEFAULT-VALUE}).")
    long seed;

    /** The property through which the {@code cohort} script names the built distribution of the source tree. */
    static final String COHORT_HOME_PROPERTY = "cohort.bench.home";

    public static void main(String[] args) {
        CommandLine command = new CommandLine(new BenchCommand());
        command.setCaseInsensitiveEnumValuesAllowed(true);
        System.exit(command.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        RunPlan plan = plan();
        DataSetSize dataSet = dataSet();
        Path folder = out != null ? out : defaultOut();
        Target target = target(plan);
        BenchRun run = new BenchRun(plan, dataSet, folder, target, startTimeout, seed,
                "cohort bench " + String.join(" ", spec.commandLine().getParseResult().originalArgs()), keepWork);
        return run.execute(System.out) ? ExitCode.OK : ExitCode.FAILURE;
    }

    private RunPlan plan() {
        if (presetChoice.peers) {
            return peerPlan();
        }
        StudyPlan base = presetChoice.full ? StudyPlan.full() : StudyPlan.quick();
        String preset = presetChoice.full ? "full" : presetChoice.quick ? "quick" : "custom";
        Duration window = duration != null ? duration : base.duration();
        Duration failoverWindow = failoverDuration != null ? failoverDuration
                : duration != null ? window.multipliedBy(2) : base.failoverDuration();
        List<String> failoverPatterns = failover == null ? base.failover()
                : failover.equals(List.of("none")) ? List.of() : failover;
        try {
            List<LoadLevel> levels = loads == null ? base.loads() : loads.stream().map(LoadLevel::parse).toList();
            return new StudyPlan(preset, nodes == null ? base.nodes() : nodes, levels,
                    patterns == null ? base.patterns() : patterns, failoverPatterns,
                    warmup != null ? warmup : base.warmup(), window, failoverWindow, rounds == null ? 1 : rounds);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** {@code --peers}: its defaults, with the load, node count and windows the user gave. */
    private PeerPlan peerPlan() {
        if (patterns != null || failover != null || targetBalancers != null || rounds != null) {
            throw new ParameterException(spec.commandLine(), "--peers runs its own experiments: leave out --patterns, "
                    + "--failover, --rounds and --target-balancers");
        }
        if ((nodes != null && nodes.size() != 1) || (loads != null && loads.size() != 1)) {
            throw new ParameterException(spec.commandLine(), "--peers takes one node count and one load");
        }
        PeerPlan base = PeerPlan.defaults();
        Duration window = duration != null ? duration : base.duration();
        Duration failoverWindow = failoverDuration != null ? failoverDuration
                : duration != null ? window.multipliedBy(2) : base.failoverDuration();
        try {
            return new PeerPlan(nodes == null ? base.nodes() : nodes.get(0),
                    loads == null ? base.load() : LoadLevel.parse(loads.get(0)),
                    warmup != null ? warmup : base.warmup(), window, failoverWindow);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private DataSetSize dataSet() {
        DataSetSize base = presetChoice.full ? DataSetSize.FULL : DataSetSize.QUICK;
        try {
            return new DataSetSize(accounts != null ? accounts : base.accounts(),
                    products != null ? products : base.products());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private Target target(RunPlan plan) {
        if (targetBalancers != null) {
            if (failover != null && !failover.equals(List.of("none"))) {
                throw new ParameterException(spec.commandLine(),
                        "--failover needs a cluster the bench starts itself; leave out --target-balancers");
            }
            if (databaseUrl != null) {
                throw new ParameterException(spec.commandLine(),
                        "--database is for clusters the bench starts; an existing cluster has its own database");
            }
            if (patterns == null) {
                throw new ParameterException(spec.commandLine(), "with --target-balancers, name the pattern the "
                        + "existing cluster replicates with in --patterns (e.g. --patterns 2211); it labels the run");
            }
            return new Target.Existing(targetBalancers, nodeMetrics);
        }
        if (!nodeMetrics.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--node-metrics goes with --target-balancers");
        }
        Path home = cohortHome != null ? cohortHome
                : Path.of(System.getProperty(COHORT_HOME_PROPERTY, "distribution/target/cohort"));
        if (!Files.isDirectory(home.resolve("lib"))) {
            throw new ParameterException(spec.commandLine(), "no built distribution in " + home + " (its lib/ is "
                    + "missing); build it (./mvnw -pl distribution -am package) or pass --cohort-home");
        }
        Path war = shopWar != null ? shopWar : home.resolve("webapps").resolve("jpetstore.war");
        if (!Files.isRegularFile(war)) {
            throw new ParameterException(spec.commandLine(), "the shop WAR " + war + " does not exist; build it "
                    + "(./mvnw -pl jpetstore-app package) or pass --shop-war");
        }
        Optional<ShopDatabase> database = Optional.empty();
        if (databaseUrl != null) {
            Optional<String> password = Optional.empty();
            if (databasePasswordEnv != null) {
                String value = System.getenv(databasePasswordEnv);
                if (value == null) {
                    throw new ParameterException(spec.commandLine(),
                            "--database-password-env " + databasePasswordEnv + " is not set");
                }
                password = Optional.of(value);
            }
            database = Optional.of(new ShopDatabase(databaseUrl, databaseUser, password));
        }
        return new Target.Local(home.toAbsolutePath().normalize(), war.toAbsolutePath().normalize(), database);
    }

    private static Path defaultOut() {
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
        return Files.isDirectory(Path.of("bench")) ? Path.of("bench", "results", "study-" + stamp)
                : Path.of("cohort-bench-" + stamp);
    }
}
