package io.cohort.cli.manage;

import io.cohort.admin.HealthReport;
import io.cohort.admin.NodeState;
import io.cohort.cli.ExitCode;
import io.cohort.cli.Main;
import io.cohort.cli.TextTable;
import io.cohort.cli.admin.AdminClient;
import io.cohort.node.deploy.ApplicationInfo;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code cohort status}: one line per member from its {@code /health} (no token needed); with a
 * token the application names too. Exit code 0 only if every member is UP.
 */
@Command(name = "status",
        mixinStandardHelpOptions = true,
        versionProvider = Main.Version.class,
        description = "Shows the members of a running cluster: name, host, state, applications, sessions held in "
                + "memory and spare capacity (0 = saturated, 1 = idle).",
        footerHeading = "%nExamples:%n",
        footer = {
            "  cohort status",
            "  cohort status --cluster /tmp/c3/cluster.json",
            "  cohort status --admin http://127.0.0.1:9081,http://127.0.0.1:9082",
            "",
            "Exit code 0 if every member is UP, 1 otherwise (handy in scripts)."})
public final class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target;

    /** A member's health and, when the token allowed asking, its applications. */
    private record MemberStatus(HealthReport health, Optional<List<ApplicationInfo>> applications) {
    }

    @Override
    public Integer call() {
        Targets targets = target.resolve(System::getenv);
        AdminClient admin = new AdminClient(target.timeout());
        List<Outcome<MemberStatus>> outcomes = Outcome.onEach(targets.nodes(), node -> {
            CompletableFuture<Optional<List<ApplicationInfo>>> apps = targets.token()
                    .map(token -> admin.applications(node.admin(), token).thenApply(Optional::of)
                            .exceptionally(e -> Optional.empty()))
                    .orElse(CompletableFuture.completedFuture(Optional.empty()));
            return admin.health(node.admin()).thenCombine(apps, MemberStatus::new);
        });
        return report(outcomes, spec.commandLine().getOut());
    }

    private static int report(List<Outcome<MemberStatus>> outcomes, PrintWriter out) {
        TextTable table = new TextTable("NODE", "HOST", "STATE", "APPS", "SESSIONS", "SPARE", "MEMBERS", "ADMIN");
        for (Outcome<MemberStatus> outcome : outcomes) {
            Target node = outcome.target();
            outcome.value().ifPresentOrElse(status -> {
                HealthReport health = status.health();
                table.row(health.node(), health.host(), health.status().name(), applications(status),
                        Long.toString(health.sessions()),
                        String.format(Locale.ROOT, "%.2f", health.load().spareCapacity()),
                        Integer.toString(health.members()), node.admin().toString());
            }, () -> table.row(node.name(), "-", "DOWN", "-", "-", "-", "-",
                    node.admin() + " (" + outcome.error().orElse("?") + ")"));
        }
        table.print(out);
        long up = outcomes.stream().filter(o -> o.value().map(s -> s.health().status() == NodeState.UP).orElse(false))
                .count();
        out.printf("%d of %d nodes UP.%n", up, outcomes.size());
        return up == outcomes.size() && up > 0 ? ExitCode.OK : ExitCode.FAILURE;
    }

    private static String applications(MemberStatus status) {
        return status.applications()
                .map(apps -> apps.isEmpty() ? "-" : apps.stream().map(ApplicationInfo::contextPath).sorted()
                        .collect(Collectors.joining(",")))
                .orElse(Integer.toString(status.health().applications()));
    }
}
