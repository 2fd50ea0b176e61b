package io.cohort.cli.cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * The shop part of {@code cohort cluster}: by default the JPetStore WAR of the distribution is
 * deployed on every node, on an embedded H2 database shared by all nodes; {@code --database} points
 * the nodes at another database (e.g. PostgreSQL) instead, {@code --no-shop} leaves the shop out.
 */
public final class ShopOptions {

    /** Where the distribution keeps the shop, relative to its home directory. */
    static final Path SHOP_WAR = Path.of("webapps", "jpetstore.war");

    @Option(names = "--no-shop", description = "Do not deploy the JPetStore shop.")
    boolean noShop;

    @Option(names = "--shop-war", paramLabel = "PATH",
            description = "The shop WAR (default: webapps/jpetstore.war of the distribution).")
    Path shopWar;

    @Option(names = "--database", paramLabel = "JDBC-URL",
            description = "The shop's database, e.g. jdbc:postgresql://127.0.0.1:5432/shop "
                    + "(default: an embedded H2 server in this process, files in <dir>/h2).")
    String databaseUrl;

    @Option(names = "--database-user", paramLabel = "USER", defaultValue = "postgres",
            description = "User for --database (default: ${DEFAULT-VALUE}).")
    String databaseUser;

    @Option(names = "--database-password-env", paramLabel = "VAR",
            description = "Environment variable holding the password for --database.")
    String databasePasswordEnv;

    boolean deploysShop() {
        return !noShop;
    }

    /** An option given that only concerns the shop (so would be ignored beside {@code --no-shop}), if any. */
    Optional<String> optionWithoutShop() {
        if (shopWar != null) {
            return Optional.of("--shop-war");
        }
        if (databaseUrl != null) {
            return Optional.of("--database");
        }
        return databasePasswordEnv != null ? Optional.of("--database-password-env") : Optional.empty();
    }

    /** The shop WAR to deploy; fails with a clear message if it cannot be found. */
    Path war() {
        Path war = shopWar != null ? shopWar : distributionHome().map(h -> h.resolve(SHOP_WAR)).orElse(SHOP_WAR);
        if (!Files.isRegularFile(war)) {
            throw new IllegalArgumentException("the shop WAR " + war + " does not exist; build the distribution "
                    + "(./mvnw -pl distribution -am package), pass --shop-war, or use --no-shop");
        }
        return war.toAbsolutePath().normalize();
    }

    /**
     * A database the user named, or empty for the embedded one; {@code environment} holds the password variable.
     *
     * @throws IllegalArgumentException if the URL is no JDBC URL, or the password variable is unset or empty
     */
    Optional<ShopDatabase> givenDatabase(Function<String, String> environment) {
        if (databaseUrl == null) {
            return Optional.empty();
        }
        if (!databaseUrl.startsWith("jdbc:")) {
            throw new IllegalArgumentException("--database " + databaseUrl
                    + ": expected a JDBC URL, e.g. jdbc:postgresql://127.0.0.1:5432/shop");
        }
        Optional<String> password = Optional.empty();
        if (databasePasswordEnv != null) {
            String value = environment.apply(databasePasswordEnv);
            if (value == null || value.isEmpty()) {
                // the nodes would refuse the variable at start, as their configuration files refuse any empty secret
                throw new IllegalArgumentException("--database-password-env " + databasePasswordEnv + " is "
                        + (value == null ? "not set" : "empty"));
            }
            password = Optional.of(value);
        }
        return Optional.of(new ShopDatabase(databaseUrl, databaseUser, password));
    }

    private static Optional<Path> distributionHome() {
        return Optional.ofNullable(System.getProperty("cohort.home")).map(Path::of);
    }
}
