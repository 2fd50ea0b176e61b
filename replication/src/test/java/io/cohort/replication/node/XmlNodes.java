package io.cohort.replication.node;

import io.cohort.config.CohortConfig;
import io.cohort.config.ConfigLoader;
import io.cohort.node.CohortNode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Starts a real node from the text of its {@code cohort.xml}, written into {@code home} as a user would. */
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
}
