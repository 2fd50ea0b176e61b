package io.cohort.cli.node;

import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigException;
import io.cohort.config.ConfigLoader;
import io.cohort.node.CohortNode;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cohort node}: runs one node in the foreground. A configuration error is one line on stderr
 * ({@code file:line:column: ...}) and exit code 2. SIGTERM (and Ctrl-C) stop the node gracefully
 * through a shutdown hook, bounded by the configured {@code graceful-stop}; so does the admin API's
 * {@code POST /admin/stop}, after which the command exits with 0.
 */
@Command(name = "node",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Runs one Cohort node in the foreground until it is stopped (SIGTERM, Ctrl-C or POST /admin/stop).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  export COHORT_ADMIN_TOKEN=$(openssl rand -hex 24)",
            "  cohort node --config conf/cohort.xml",
            "  JAVA_OPTS=-Xmx2g cohort node -c /etc/cohort/n1.xml",
            "",
            "The configuration is validated first; a mistake prints file:line:column and exits with 2."})
public final class NodeCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(NodeCommand.class);

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE",
            description = "The node's configuration file (urn:cohort:config:1).")
    Path config;

    @Option(names = "--ready-file", hidden = true, paramLabel = "FILE",
            description = "Writes the node's name, pid and bound addresses here (JSON) once it serves.")
    Path readyFile;

    @Option(names = "--exit-with-parent", hidden = true, arity = "0..1", fallbackValue = "0", paramLabel = "PID",
            description = "Stops the node when the process that started it exits (used by `cohort cluster`, which "
                    + "passes its pid: a node whose parent is no longer that process, because it has exited, does not "
                    + "start).")
    Long exitWithParent;

    @Override
    public Integer call() throws Exception {
        Optional<ParentWatch> parent = Optional.empty();
        if (exitWithParent != null) {
            parent = ParentWatch.of(exitWithParent);
            if (parent.isEmpty()) {
                spec.commandLine().getErr().println("cohort node: the process that started this node ("
                        + exitWithParent + ") has exited; not starting");
                return ExitCode.FAILURE;
            }
        }
        CohortConfig configuration;
        try {
            configuration = ConfigLoader.load(config);
        } catch (ConfigException e) {
            spec.commandLine().getErr().println(e.getMessage());
            return ExitCode.USAGE;
        }
        String name = configuration.node().name();
        CohortNode node;
        try {
            node = CohortNode.start(configuration);
        } catch (Exception e) {
            LOG.error("Node {} failed to start", name, e);
            spec.commandLine().getErr().println("cohort node: node " + name + " failed to start: " + e.getMessage());
            return ExitCode.FAILURE;
        }
        Thread shutdown = new Thread(node::stop, "cohort-shutdown-" + name);
        Runtime.getRuntime().addShutdownHook(shutdown);
        // watched from before the start: a parent that exited while the node started stops it now
        parent.ifPresent(watch -> watch.stopOnExit(node));
        if (readyFile != null) {
            NodeAnnouncement.of(node.self()).write(readyFile);
        }
        node.awaitStopped();
        removeHook(shutdown);
        return ExitCode.OK;
    }

    private static void removeHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: the JVM is exiting anyway
        }
    }
}
