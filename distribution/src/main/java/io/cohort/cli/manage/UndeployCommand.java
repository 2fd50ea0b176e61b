package io.cohort.cli.manage;

import io.cohort.cli.CommandFailure;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.cli.TextTable;
import io.cohort.cli.admin.AdminClient;
import io.cohort.node.deploy.ApplicationName;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cohort undeploy}: stops and removes an application on every member at once
 * ({@code DELETE /admin/apps/{name}}). Exit code 1 if a member failed or no member had it.
 */
@Command(name = "undeploy",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Undeploys an application from every member of a running cluster, in parallel, and removes "
                + "its WAR from their webapps/. Its sessions end (with replication, as on a graceful stop).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort undeploy shop",
            "  cohort undeploy shop --cluster /tmp/c3/cluster.json",
            "",
            "Exit code 1 if any member failed, or if no member had the application."})
public final class UndeployCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "NAME", description = "The application's name (shop for /shop; shop.war works too).")
    String name;

    @Mixin
    TargetOptions target;

    @Override
    public Integer call() {
        ApplicationName app = applicationName();
        Targets targets = target.resolve(System::getenv);
        String token = targets.token().orElseThrow(() -> CommandFailure.usage(
                "no admin token: give --token-env VAR, a cluster file, or set COHORT_ADMIN_TOKEN"));
        AdminClient admin = new AdminClient(target.timeout());
        List<Outcome<Boolean>> outcomes = Outcome.onEach(targets.nodes(),
                node -> admin.undeploy(node.admin(), token, app));
        return report(app, outcomes, spec.commandLine().getOut());
    }

    private ApplicationName applicationName() {
        String value = name.startsWith("/") ? name.substring(1) : name;
        value = value.endsWith(".war") ? value.substring(0, value.length() - ".war".length()) : value;
        try {
            return new ApplicationName(value.isEmpty() ? "ROOT" : value);
        } catch (IllegalArgumentException e) {
            throw CommandFailure.usage(e.getMessage());
        }
    }

    private static int report(ApplicationName app, List<Outcome<Boolean>> outcomes, PrintWriter out) {
        TextTable table = new TextTable("NODE", "RESULT", "TIME");
        for (Outcome<Boolean> outcome : outcomes) {
            String result = outcome.value().map(removed -> removed ? "undeployed" : "was not deployed")
                    .orElseGet(() -> "FAILED: " + outcome.error().orElse("?"));
            table.row(outcome.target().name(), result, Durations.seconds(outcome.took()));
        }
        table.print(out);
        boolean allAnswered = outcomes.stream().allMatch(Outcome::succeeded);
        long removed = outcomes.stream().filter(o -> o.value().orElse(false)).count();
        out.printf("Undeployed %s from %d of %d nodes.%n", app, removed, outcomes.size());
        return allAnswered && removed > 0 ? ExitCode.OK : ExitCode.FAILURE;
    }
}
