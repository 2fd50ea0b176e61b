package io.cohort.cli.manage;

import io.cohort.cli.CommandFailure;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.cli.TextTable;
import io.cohort.cli.admin.AdminClient;
import io.cohort.node.deploy.ApplicationInfo;
import io.cohort.node.deploy.ApplicationName;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cohort deploy}: uploads a WAR to every member at once ({@code PUT /admin/apps/{name}});
 * each member answers when the application serves there. Exit code 1 if any member failed.
 */
@Command(name = "deploy",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Deploys (or redeploys) a WAR to every member of a running cluster, in parallel. "
                + "Each member answers once the application serves; the WAR also lands in its webapps/, "
                + "so it is deployed again after a restart.",
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort deploy shop.war                        the cluster in ./cohort-work",
            "  cohort deploy build/shop-1.2.war --name shop  served at /shop",
            "  cohort deploy shop.war --cluster /tmp/c3/cluster.json",
            "  export COHORT_ADMIN_TOKEN=...",
            "  cohort deploy shop.war --admin http://10.0.0.5:9081,http://10.0.0.6:9081",
            "",
            "Exit code 1 if any member failed; the others keep the new version."})
public final class DeployCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WAR", description = "The WAR file.")
    Path war;

    @Option(names = "--name", paramLabel = "NAME",
            description = "Application name, served at /NAME (ROOT: at /); default: the WAR's file name without .war.")
    String name;

    @Mixin
    TargetOptions target;

    @Override
    public Integer call() {
        if (!Files.isRegularFile(war)) {
            throw CommandFailure.usage("no such WAR file: " + war);
        }
        ApplicationName app = applicationName();
        Targets targets = target.resolve(System::getenv);
        String token = targets.token().orElseThrow(() -> CommandFailure.usage(
                "no admin token: give --token-env VAR, a cluster file, or set COHORT_ADMIN_TOKEN"));
        AdminClient admin = new AdminClient(target.timeout());
        List<Outcome<ApplicationInfo>> outcomes = Outcome.onEach(targets.nodes(),
                node -> admin.deploy(node.admin(), token, app, war));
        return report(app, outcomes, spec.commandLine().getOut());
    }

    private ApplicationName applicationName() {
        try {
            return name == null ? ApplicationName.ofWar(war) : new ApplicationName(name);
        } catch (IllegalArgumentException e) {
            throw CommandFailure.usage(e.getMessage() + (name == null ? "; give --name" : ""));
        }
    }

    private static int report(ApplicationName app, List<Outcome<ApplicationInfo>> outcomes, PrintWriter out) {
        TextTable table = new TextTable("NODE", "RESULT", "CONTEXT", "SHA-256", "TIME");
        for (Outcome<ApplicationInfo> outcome : outcomes) {
            String time = Durations.seconds(outcome.took());
            outcome.value().ifPresentOrElse(
                    info -> table.row(outcome.target().name(), "deployed", info.contextPath(),
                            info.warSha256().substring(0, Math.min(12, info.warSha256().length())), time),
                    () -> table.row(outcome.target().name(), "FAILED: " + outcome.error().orElse("?"), "", "", time));
        }
        table.print(out);
        long ok = outcomes.stream().filter(Outcome::succeeded).count();
        out.printf("Deployed %s to %d of %d nodes.%n", app, ok, outcomes.size());
        return ok == outcomes.size() && ok > 0 ? ExitCode.OK : ExitCode.FAILURE;
    }
}
