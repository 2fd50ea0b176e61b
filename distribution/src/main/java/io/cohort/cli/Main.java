package io.cohort.cli;

import io.cohort.cli.balancer.BalancerCommand;
import io.cohort.cli.cluster.ClusterCommand;
import io.cohort.cli.manage.DeployCommand;
import io.cohort.cli.manage.StatusCommand;
import io.cohort.cli.manage.UndeployCommand;
import io.cohort.cli.node.NodeCommand;
import java.io.PrintWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code cohort} command. Exit codes: {@value ExitCode#OK} done, {@value ExitCode#FAILURE} a
 * run-time failure, {@value ExitCode#USAGE} a usage or configuration error.
 */
@Command(name = "cohort",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        subcommands = {NodeCommand.class, BalancerCommand.class, ClusterCommand.class, DeployCommand.class, UndeployCommand.class,
            StatusCommand.class, HelpCommand.class},
        description = "Cohort: a session-replicating servlet cluster on embedded Jetty.",
        synopsisSubcommandLabel = "COMMAND",
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort cluster --nodes 2 --war shop.war   a local two-node cluster with shop",
            "  cohort deploy shop.war                    deploy to every node of that cluster",
            "  cohort status                             show its members",
            "  cohort node --config conf/cohort.xml      run one node",
            "",
            "Exit codes: 0 done, 1 run-time failure, 2 usage or configuration error."})
public final class Main implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "Missing command");
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs a command line with the given streams and returns its exit code; for tests and for {@link #main}. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine commandLine = new CommandLine(new Main())
                .setExecutionExceptionHandler(Main::failed)
                .setOut(out)
                .setErr(err);
        try {
            return commandLine.execute(args);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private static int failed(Exception e, CommandLine command, ParseResult parsed) {
        String name = command.getCommandSpec().qualifiedName();
        if (e instanceof CommandFailure failure) {
            LOG.debug("{} failed", name, e);
            command.getErr().println(name + ": " + failure.getMessage());
            return failure.exitCode();
        }
        if (e instanceof InterruptedException) {
            command.getErr().println(name + ": interrupted");
            return ExitCode.FAILURE;
        }
        LOG.error("{} failed", name, e);
        command.getErr().println(name + ": " + e);
        return ExitCode.FAILURE;
    }

    /** The version from the jar's manifest ({@code Implementation-Version}). */
    public static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = Main.class.getPackage().getImplementationVersion();
            return new String[] {"cohort " + (version == null ? "(development build)" : version),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.home") + ")"};
        }
    }
}
