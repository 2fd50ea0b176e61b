package io.cohort.cli.cluster;

import io.cohort.node.deploy.ApplicationName;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** What {@code cohort cluster} prints once the cluster is up: the members, the URLs to open, what to do next. */
final class ClusterBanner {

    private final LocalClusterPlan plan;
    private final ClusterState state;
    private final LocalBalancers balancers;

    /** @param balancers the cluster's balancers, or null if it runs none */
    ClusterBanner(LocalClusterPlan plan, ClusterState state, LocalBalancers balancers) {
        this.plan = plan;
        this.state = state;
        this.balancers = balancers;
    }

    void print(PrintWriter out) {
        out.printf("Cohort cluster of %d nodes is up.%n", state.nodes().size());
        for (ClusterState.Node node : state.nodes()) {
            out.printf("  %-4s %-10s %-28s admin %-28s pid %-8d log %s%n", node.name(), node.host(), node.http(),
                    node.admin(), node.pid(), relative(Path.of(node.log())));
        }
        if (balancers != null) {
            for (LocalBalancers.Running balancer : balancers.running()) {
                out.printf("  balancer for %-10s %-28s admin %s (roundrobin:local)%n", balancer.host(),
                        balancer.server().uri(), balancer.server().adminUri());
            }
        }
        List<ApplicationName> apps = applications();
        if (apps.isEmpty()) {
            out.println("No applications yet.");
        } else {
            out.println("Open:");
            for (ApplicationName app : apps) {
                if (balancers != null) {
                    out.printf("  %s   (through the balancer of %s)%n",
                            balancers.first().resolve(withSlash(app.contextPath())), balancers.running().get(0).host());
                }
                for (ClusterState.Node node : state.nodes()) {
                    out.printf("  %s   (node %s directly)%n", node.http().resolve(withSlash(app.contextPath())),
                            node.name());
                }
            }
        }
        String cluster = plan.stateFile().equals(Path.of("cohort-work", ClusterState.FILE_NAME).toAbsolutePath())
                ? "" : " --cluster " + shellWord(relative(plan.stateFile()).toString());
        out.printf("Deploy: cohort deploy%s app.war   Status: cohort status%s   Stop: Ctrl-C%n", cluster, cluster);
        out.flush();
    }

    /** The applications in n1's webapps (the WARs given now and those deployed earlier). */
    private List<ApplicationName> applications() {
        Path webapps = plan.nodes().get(0).webapps();
        try (Stream<Path> files = Files.list(webapps)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".war"))
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .sorted()
                    .map(ApplicationName::ofWar)
                    .toList();
        } catch (IOException | IllegalArgumentException e) {
            return List.of();
        }
    }

    private static String withSlash(String contextPath) {
        return contextPath.endsWith("/") ? contextPath : contextPath + "/";
    }

    /** {@code text} as one word for a POSIX shell: as it is when it is plain, else in single quotes. */
    static String shellWord(String text) {
        return text.matches("[A-Za-z0-9_./:=@%+,-]+") ? text : "'" + text.replace("'", "'\\''") + "'";
    }

    private static Path relative(Path path) {
        Path here = Path.of("").toAbsolutePath();
        return path.startsWith(here) ? here.relativize(path) : path;
    }
}
