package io.cohort.jpetstore.web;

import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import io.cohort.jpetstore.testing.ShopHost;
import io.cohort.jpetstore.testing.TestDatabase;
import io.cohort.node.CohortNode;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The shop as users run it: the built {@code jpetstore.war} in a Cohort node's {@code webapps/},
 * with the database given to the node in its XML configuration (the node's HikariCP pool, bound in
 * JNDI as {@code jdbc/jpetstore}) — nothing container-specific in the WAR.
 */
final class CohortNodeShop implements ShopHost {

    static final Path SHOP_WAR = Path.of("target/test-wars/jpetstore.war");

    private final CohortNode node;

    private CohortNodeShop(CohortNode node) {
        this.node = node;
    }

    static CohortNodeShop start(TestDatabase database, Path home) throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        Files.copy(SHOP_WAR, home.resolve("webapps/jpetstore.war"));
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="shop1" http-port="0" webapps="webapps" work-dir="work" graceful-stop="5s"/>
                  <admin port="0"/>
                  <datasource name="jdbc/jpetstore" url="%s" user="%s"%s/>
                </cohort>
                """.formatted(escape(database.jdbcUrl()), escape(database.user()),
                database.password().isEmpty() ? "" : " password-env=\"SHOP_DB_PASSWORD\"");
        CohortConfig config = ConfigLoader.parse(home.resolve("cohort.xml").toString(),
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), home,
                Map.of("SHOP_DB_PASSWORD", database.password())::get);
        return new CohortNodeShop(CohortNode.start(config));
    }

    @Override
    public URI base() {
        return URI.create(node.self().httpAddress() + CONTEXT_PATH);
    }

    @Override
    public void close() {
        node.stop();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("\"", "&quot;");
    }
}
