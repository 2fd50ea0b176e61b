package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.RunFolder;
import io.cohort.cli.cluster.EmbeddedH2Server;
import io.cohort.cli.cluster.ShopDatabase;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One {@code cohort bench} invocation once its options are checked: sets up what all experiments share (the
 * embedded H2 database unless one is given), runs the experiments with a progress display, and stops everything
 * it started, also on Ctrl-C or SIGTERM (a shutdown hook) and on failure. Cluster directories live in
 * {@code <run folder>/work} during the run; it is removed when every experiment succeeded (unless asked to keep
 * it), kept with the node logs otherwise.
 */
public final class BenchRun {

    /** What the experiments load. */
    public sealed interface Target {
        /**
         * Clusters the bench starts.
         *
         * @param cohortHome the built distribution, whose {@code lib/} and logging configuration the nodes use
         * @param shopWar    the shop WAR the nodes deploy
         * @param database   the shop's database; empty for an embedded H2 server in this process
         */
        record Local(Path cohortHome, Path shopWar, Optional<ShopDatabase> database) implements Target {
        }

        /** A cluster that runs already. */
        record Existing(List<URI> balancers, List<URI> metrics) implements Target {
            public Existing {
                balancers = List.copyOf(balancers);
                metrics = List.copyOf(metrics);
            }
        }
    }

    private final RunPlan plan;
    private final DataSetSize dataSet;
    private final Path folder;
    private final Target target;
    private final Duration startTimeout;
    private final long seed;
    private final String command;
    private final boolean keepWork;

    public BenchRun(RunPlan plan, DataSetSize dataSet, Path folder, Target target, Duration startTimeout, long seed,
            String command, boolean keepWork) {
        this.keepWork = keepWork;
        this.plan = plan;
        this.dataSet = dataSet;
        this.folder = folder.toAbsolutePath().normalize();
        this.target = target;
        this.startTimeout = startTimeout;
        this.seed = seed;
        this.command = command;
    }

    /** Runs the whole plan; true if every experiment was measured. */
    public boolean execute(PrintStream out) throws IOException {
        List<ExperimentSpec> experiments = experiments();
        Cleanup cleanup = new Cleanup();
        Thread hook = new Thread(() -> {
            out.println();
            out.println("cohort bench: interrupted; stopping everything it started ...");
            cleanup.close();
        }, "cohort-bench-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        Path work = folder.resolve("work");
        int failed;
        out.printf("cohort bench: %d experiment(s) of the %s preset into %s%n", experiments.size(), plan.preset(),
                folder);
        out.printf("  loads: %s; think time 300 ms ± 100 ms; data set %d accounts, %d products%n",
                plan.loads().stream().map(LoadLevel::toString).toList(), dataSet.accounts(), dataSet.products());
        try {
            Files.createDirectories(folder);
            ExperimentRunner.Systems systems = systems(work, cleanup, out);
            ExperimentRunner runner = new ExperimentRunner(systems, dataSet.accounts(), seed, cleanup);
            try (Progress progress = new ConsoleProgress(out, experiments, System.console() != null)) {
                failed = new StudyRun(new RunFolder(folder), runner, progress).run(command, plan.preset(), experiments);
            }
        } finally {
            cleanup.close();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs already
            }
        }
        if (failed > 0) {
            out.printf("cohort bench: %d experiment(s) failed; node logs are in %s%n", failed, work);
        } else if (keepWork) {
            out.printf("cohort bench: cluster directories and node logs kept in %s%n", work);
        } else {
            WorkTrees.delete(work);
        }
        RunCompletion.complete(folder, out);
        return failed == 0;
    }

    private List<ExperimentSpec> experiments() {
        if (target instanceof Target.Existing existing) {
            if (!(plan instanceof StudyPlan study)) {
                throw new IllegalArgumentException("the " + plan.preset() + " preset starts its own systems");
            }
            int nodes = existing.metrics().isEmpty() ? study.nodes().get(0) : existing.metrics().size();
            List<ExperimentSpec> specs = new ArrayList<>();
            for (LoadLevel load : plan.loads()) {
                for (int round = 1; round <= study.rounds(); round++) {
                    for (String pattern : study.patterns()) {
                        String id = "existing-" + pattern + "-n" + nodes + "-" + load.label()
                                + (study.rounds() > 1 ? "-r" + round : "");
                        specs.add(new ExperimentSpec(id, "existing", pattern, nodes, load.usersPerNode(), load.label(),
                                study.warmup(), study.duration(), false, round));
                    }
                }
            }
            return specs;
        }
        return plan.experiments();
    }

    private ExperimentRunner.Systems systems(Path work, Cleanup cleanup, PrintStream out) throws IOException {
        if (target instanceof Target.Existing existing) {
            List<URI> shops = existing.balancers().stream().map(BenchRun::shopAddress).toList();
            return (spec, c) -> new ExistingCluster(shops, existing.metrics());
        }
        Target.Local local = (Target.Local) target;
        ShopDatabase database;
        if (local.database().isPresent()) {
            database = local.database().get();
        } else {
            EmbeddedH2Server h2 = cleanup.add(EmbeddedH2Server.start(work.resolve("h2")));
            database = h2.database();
        }
        StudyEnvironment environment = new StudyEnvironment(work, local.shopWar(), database,
                StudyEnvironment.nodeJava(local.cohortHome(), dataSet), startTimeout, dataSet.accounts());
        if (plan instanceof PeerPlan) {
            return new PeerSystems(environment, dataSet);
        }
        return (spec, c) -> LocalStudyCluster.start(spec, environment, c::add);
    }

    /** A balancer's address, with the shop's context path added unless it names a path already. */
    static URI shopAddress(URI balancer) {
        String text = balancer.toString().replaceAll("/+$", "");
        return URI.create(balancer.getPath() == null || balancer.getPath().isEmpty() || balancer.getPath().equals("/")
                ? text + "/jpetstore" : text);
    }

}
