package io.cohort.cli.cluster;

import java.util.Objects;
import java.util.Optional;

/**
 * The database the nodes of a local cluster give the shop as {@code java:comp/env/jdbc/jpetstore}:
 * the embedded H2 server that {@code cohort cluster} starts, or one the user names (PostgreSQL).
 *
 * @param url JDBC URL as the nodes reach it
 * @param user database user
 * @param password the password, handed to the nodes in an environment variable (never written
 *     into their configuration files); empty for none
 */
public record ShopDatabase(String url, String user, Optional<String> password) {

    /** The JNDI name under {@code java:comp/env} that the shop looks up. */
    public static final String JNDI_NAME = "jdbc/jpetstore";
    /** The environment variable through which nodes receive the password. */
    public static final String PASSWORD_ENV = "COHORT_SHOP_DB_PASSWORD";

    public ShopDatabase {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(password, "password");
    }

    /** The {@code <datasource>} element of a node's configuration. */
    String configXml() {
        return "<datasource name=\"%s\" url=\"%s\" user=\"%s\"%s/>".formatted(JNDI_NAME, xml(url), xml(user),
                password.isPresent() ? " password-env=\"" + PASSWORD_ENV + "\"" : "");
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
