package io.cohort.cli.manage;

import io.cohort.cli.CommandFailure;
import io.cohort.cli.PositiveDurationConverter;
import io.cohort.cli.cluster.ClusterState;
import io.cohort.cli.cluster.PlannedNode;
import io.cohort.config.Secret;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The options that say which running cluster a command talks to: a state file written by
 * {@code cohort cluster} (the default, {@code cohort-work/cluster.json}) or the members' admin URLs.
 * The admin token comes from {@code --token-env VAR} if given, else from the state file, else from
 * {@code COHORT_ADMIN_TOKEN}.
 */
public final class TargetOptions {

    static final Path DEFAULT_CLUSTER_FILE = Path.of("cohort-work", ClusterState.FILE_NAME);

    @Option(names = "--cluster", paramLabel = "FILE",
            description = "State file of a cluster started by `cohort cluster` (default: cohort-work/cluster.json).")
    Path clusterFile;

    @Option(names = "--admin", paramLabel = "URL", split = ",",
            description = "Admin URL of a member, e.g. http://127.0.0.1:9081; repeatable; instead of --cluster.")
    List<URI> adminUrls;

    @Option(names = "--token-env", paramLabel = "VAR",
            description = "Environment variable holding the admin token (default: the cluster file's token, "
                    + "else " + PlannedNode.TOKEN_ENV + ").")
    String tokenEnv;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "2m", converter = PositiveDurationConverter.class,
            description = "Longest wait for each member's answer, above zero (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    public Duration timeout() {
        return timeout;
    }

    /** The members and token, or a usage error (exit code 2) saying what is missing. */
    public Targets resolve(Function<String, String> environment) {
        if (clusterFile != null && adminUrls != null) {
            throw CommandFailure.usage("give --cluster or --admin, not both");
        }
        Optional<String> fromEnvVar = Optional.ofNullable(tokenEnv).map(name -> Optional
                .ofNullable(environment.apply(name)).map(v -> token(v, name)).filter(v -> !v.isEmpty())
                .orElseThrow(() -> CommandFailure.usage("--token-env " + name + ": the variable is not set")));
        Optional<String> defaultToken = Optional.ofNullable(environment.apply(PlannedNode.TOKEN_ENV))
                .map(v -> token(v, PlannedNode.TOKEN_ENV)).filter(v -> !v.isEmpty());
        if (adminUrls != null) {
            List<Target> nodes = adminUrls.stream().map(TargetOptions::target).toList();
            return new Targets(nodes, fromEnvVar.or(() -> defaultToken));
        }
        ClusterState state = readState(clusterFile == null ? DEFAULT_CLUSTER_FILE : clusterFile);
        List<Target> nodes = state.nodes().stream().map(n -> new Target(n.name(), n.admin())).toList();
        return new Targets(nodes, fromEnvVar.or(() -> Optional.of(state.adminToken())).or(() -> defaultToken));
    }

    /**
     * The token as a node reads the same variable: without trailing line ends (a Kubernetes secret made from a file
     * has one); empty when blank. A token that still holds a control character, or spaces at either end, cannot be
     * sent in an {@code Authorization} header as the node compares it: a usage error that does not show the value.
     */
    static String token(String raw, String variable) {
        String value = Secret.withoutTrailingLineEnds(raw);
        if (value.isBlank()) {
            return "";
        }
        if (Secret.hasSurroundingSpace(value) || value.chars().anyMatch(Character::isISOControl)) {
            throw CommandFailure.usage(variable + ": the admin token has spaces at its start or end, or a control "
                    + "character, which an HTTP header cannot carry");
        }
        return value;
    }

    private static Target target(URI admin) {
        if (!"http".equals(admin.getScheme()) && !"https".equals(admin.getScheme()) || admin.getHost() == null) {
            throw CommandFailure.usage("--admin " + admin + ": expected an http URL such as http://127.0.0.1:9081");
        }
        return new Target(admin.getAuthority(), admin);
    }

    private static ClusterState readState(Path file) {
        if (!Files.exists(file)) {
            throw CommandFailure.usage("no cluster state file " + file + ": start a cluster with `cohort cluster`, "
                    + "or give --cluster FILE or --admin URL");
        }
        try {
            return ClusterState.read(file);
        } catch (IOException e) {
            throw CommandFailure.usage("cannot read " + file + ": " + e.getMessage());
        }
    }
}
