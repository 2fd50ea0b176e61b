package io.cohort.bench.tomcat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one Tomcat cluster node runs, from its command line ({@code --name value} pairs):
 *
 * <pre>
 * --http-port 8081 --route n1 --manager delta|backup [--delivery async|sync]
 * --receiver-port 4001 --members 127.0.0.1:4001,127.0.0.1:4002 --war jpetstore.war
 * --work-dir dir --db-url jdbc:h2:tcp://... [--db-user sa] [--context-path /jpetstore] [--exit-with-parent]
 * </pre>
 *
 * The database password, if any, comes from the environment variable {@value #PASSWORD_ENV}, never
 * from the command line. {@code --members} lists every member including this one (its own receiver
 * address is recognised and taken out by Tribes).
 *
 * @param httpPort       the HTTP connector's port, on 127.0.0.1
 * @param route          the jvmRoute: session ids end with {@code .<route>}
 * @param manager        DeltaManager or BackupManager
 * @param delivery       asynchronous or synchronous channel sends
 * @param receiverPort   the Tribes receiver's TCP port, on 127.0.0.1
 * @param members        the static membership
 * @param war            the WAR to deploy
 * @param contextPath    where it is deployed
 * @param workDir        Tomcat's base directory (unpacked WAR, compiled JSPs)
 * @param dbUrl          JDBC URL of the shop's database, bound as {@code java:comp/env/jdbc/jpetstore}
 * @param dbUser         its user
 * @param exitWithParent whether the node exits when the process that started it is gone
 */
public record TomcatNodeOptions(int httpPort, String route, SessionReplication manager, Delivery delivery,
        int receiverPort, List<ClusterMember> members, Path war, String contextPath, Path workDir, String dbUrl,
        String dbUser, boolean exitWithParent) {

    /** The environment variable with the database password. */
    public static final String PASSWORD_ENV = "COHORT_SHOP_DB_PASSWORD";
    private static final Set<String> VALUED = Set.of("--http-port", "--route", "--manager", "--delivery",
            "--receiver-port", "--members", "--war", "--context-path", "--work-dir", "--db-url", "--db-user");
    private static final String FLAG = "--exit-with-parent";

    public TomcatNodeOptions {
        checkPort("--http-port", httpPort);
        checkPort("--receiver-port", receiverPort);
        Objects.requireNonNull(route, "route");
        if (!route.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("--route must be letters, digits, '-' and '_', not '" + route + "'");
        }
        Objects.requireNonNull(manager, "manager");
        Objects.requireNonNull(delivery, "delivery");
        members = List.copyOf(members);
        if (members.stream().noneMatch(m -> m.port() == receiverPort)) {
            throw new IllegalArgumentException("--members must include this node's receiver (port " + receiverPort + ")");
        }
        Objects.requireNonNull(war, "war");
        if (!contextPath.isEmpty() && (!contextPath.startsWith("/") || contextPath.endsWith("/"))) {
            throw new IllegalArgumentException("--context-path must be empty or start and not end with '/': "
                    + contextPath);
        }
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(dbUrl, "dbUrl");
        if (!dbUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--db-url must be a JDBC URL, not '" + dbUrl + "'");
        }
        Objects.requireNonNull(dbUser, "dbUser");
    }

    /** Parses and checks a command line; the message of the exception says what is wrong. */
    public static TomcatNodeOptions parse(String... args) {
        Map<String, String> values = new HashMap<>();
        boolean exitWithParent = false;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals(FLAG)) {
                exitWithParent = true;
            } else if (VALUED.contains(name)) {
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                if (values.put(name, args[++i]) != null) {
                    throw new IllegalArgumentException(name + " is given twice");
                }
            } else {
                throw new IllegalArgumentException("unknown option '" + name + "'; options: " + VALUED + " " + FLAG);
            }
        }
        Path war = Path.of(required(values, "--war"));
        if (!Files.isRegularFile(war)) {
            throw new IllegalArgumentException("--war: no such file " + war);
        }
        return new TomcatNodeOptions(integer(values, "--http-port"), required(values, "--route"),
                SessionReplication.parse(required(values, "--manager")),
                Delivery.parse(values.getOrDefault("--delivery", "async")), integer(values, "--receiver-port"),
                Arrays.stream(required(values, "--members").split(",")).map(String::trim).map(ClusterMember::parse)
                        .toList(),
                war.toAbsolutePath(), values.getOrDefault("--context-path", "/jpetstore"),
                Path.of(required(values, "--work-dir")).toAbsolutePath(), required(values, "--db-url"),
                values.getOrDefault("--db-user", "sa"), exitWithParent);
    }

    /** The database password from {@value #PASSWORD_ENV}, if set. */
    public Optional<String> dbPassword() {
        return Optional.ofNullable(System.getenv(PASSWORD_ENV));
    }

    private static String required(Map<String, String> values, String name) {
        String value = values.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return value;
    }

    private static int integer(Map<String, String> values, String name) {
        String value = required(values, name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, not '" + value + "'", e);
        }
    }

    private static void checkPort(String name, int port) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException(name + " must be 1 to 65535, not " + port);
        }
    }
}
