package io.cohort.bench.peers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What one plain-Jetty JDBC session node runs, from its command line:
 * {@code --http-port 8081 --route n1 --war jpetstore.war --work-dir dir --db-url jdbc:... [--db-user sa]
 * [--exit-with-parent]}. The database password, if any, comes from {@value #PASSWORD_ENV}.
 *
 * @param httpPort       the HTTP port on 127.0.0.1
 * @param route          the session id manager's worker name: ids end with {@code .<route>}
 * @param war            the shop's WAR, deployed at {@code /jpetstore}
 * @param workDir        where the WAR is unpacked and JSPs compiled
 * @param dbUrl          the shop's database, which also holds the sessions
 * @param dbUser         its user
 * @param exitWithParent whether the node exits when the process that started it is gone
 */
public record JettyJdbcNodeOptions(int httpPort, String route, Path war, Path workDir, String dbUrl, String dbUser,
        boolean exitWithParent) {

    public static final String PASSWORD_ENV = "COHORT_SHOP_DB_PASSWORD";
    private static final Set<String> VALUED = Set.of("--http-port", "--route", "--war", "--work-dir", "--db-url",
            "--db-user");
    private static final String FLAG = "--exit-with-parent";

    public JettyJdbcNodeOptions {
        if (httpPort < 1 || httpPort > 65_535) {
            throw new IllegalArgumentException("--http-port must be 1 to 65535, not " + httpPort);
        }
        Objects.requireNonNull(route, "route");
        if (!route.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("--route must be letters, digits, '-' and '_', not '" + route + "'");
        }
        Objects.requireNonNull(war, "war");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(dbUrl, "dbUrl");
        if (!dbUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--db-url must be a JDBC URL, not '" + dbUrl + "'");
        }
        Objects.requireNonNull(dbUser, "dbUser");
    }

    public static JettyJdbcNodeOptions parse(String... args) {
        Map<String, String> values = new HashMap<>();
        boolean exitWithParent = false;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals(FLAG)) {
                exitWithParent = true;
            } else if (VALUED.contains(args[i]) && i + 1 < args.length) {
                if (values.put(args[i], args[++i]) != null) {
                    throw new IllegalArgumentException(args[i - 1] + " is given twice");
                }
            } else {
                throw new IllegalArgumentException("unknown option or missing value '" + args[i] + "'; options: "
                        + VALUED + " " + FLAG);
            }
        }
        Path war = Path.of(required(values, "--war"));
        if (!Files.isRegularFile(war)) {
            throw new IllegalArgumentException("--war: no such file " + war);
        }
        int port;
        try {
            port = Integer.parseInt(required(values, "--http-port"));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--http-port must be a number", e);
        }
        return new JettyJdbcNodeOptions(port, required(values, "--route"), war.toAbsolutePath(),
                Path.of(required(values, "--work-dir")).toAbsolutePath(), required(values, "--db-url"),
                values.getOrDefault("--db-user", "sa"), exitWithParent);
    }

    /** The command line that {@link #parse} reads back. */
    public List<String> arguments() {
        List<String> args = new java.util.ArrayList<>(List.of("--http-port", Integer.toString(httpPort), "--route",
                route, "--war", war.toString(), "--work-dir", workDir.toString(), "--db-url", dbUrl, "--db-user",
                dbUser));
        if (exitWithParent) {
            args.add(FLAG);
        }
        return args;
    }

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
}
