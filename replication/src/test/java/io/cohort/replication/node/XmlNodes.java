package io.cohort.replication.node;

import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import io.cohort.node.CohortNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Starts a real node from the text of its {@code cohort.xml}, written into {@code home} as a user would; and runs what
 * the node runs on its own schedule.
 */
final class XmlNodes {

    private XmlNodes() {
    }

    static CohortNode start(Path home, String xml) throws Exception {
        Path file = home.resolve("cohort.xml");
        Files.writeString(file, xml);
        CohortConfig config = ConfigLoader.parse(file.toString(),
                new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), home, Map.<String, String>of()::get);
        return CohortNode.start(config);
    }

    /** Runs the node's sweep of expired sessions in every application now (the node runs it once a minute). */
    static void scavenge(CohortNode node) {
        try {
            java.lang.reflect.Field field = CohortNode.class.getDeclaredField("server");
            field.setAccessible(true);
            org.eclipse.jetty.server.Server server = (org.eclipse.jetty.server.Server) field.get(node);
            server.getDescendants(org.eclipse.jetty.ee10.webapp.WebAppContext.class)
                    .forEach(context -> context.getSessionHandler().scavenge());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
