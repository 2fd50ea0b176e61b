package io.cohort.cli.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cohort.config.ConfigException;
import io.cohort.config.ConfigFile;
import io.cohort.config.ConfigLoader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * For tests: the deployment files at the top of the project (Dockerfile, docker-compose.yml,
 * deploy/), read the way their tools read them. YAML goes through SnakeYAML (the parser under
 * jackson-dataformat-yaml) because Compose files use anchors and merge keys ({@code <<: *node}),
 * which Jackson's YAML tree model leaves unresolved; the result is handed to Jackson as a tree.
 */
final class DeployFiles {

    /** The project's root: tests run in the distribution module's directory. */
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Secrets the deployment files name, with stand-in values (the files never hold real ones). */
    static final Map<String, String> SECRETS = Map.of("COHORT_ADMIN_TOKEN", "admin-token",
            "COHORT_CLUSTER_SECRET", "cluster-secret-of-the-test", "COHORT_DB_PASSWORD", "db-password");

    private DeployFiles() {
    }

    /** The single YAML document of a file, with anchors, aliases and merge keys resolved. */
    static JsonNode yaml(Path file) throws IOException {
        List<JsonNode> documents = yamlDocuments(file);
        if (documents.size() != 1) {
            throw new AssertionError(file + ": expected one YAML document, found " + documents.size());
        }
        return documents.get(0);
    }

    /** Every YAML document of a file ({@code ---} separated). */
    static List<JsonNode> yamlDocuments(Path file) throws IOException {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        List<JsonNode> documents = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            for (Object document : new Yaml(new SafeConstructor(options)).loadAll(in)) {
                if (document != null) {
                    documents.add(JSON.valueToTree(document));
                }
            }
        }
        return documents;
    }

    /** A Cohort configuration as the node or balancer would read it, with {@link #SECRETS} as environment. */
    static ConfigFile cohortConfig(String name, String xml) throws ConfigException {
        return ConfigLoader.parseFile(name, new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), ROOT,
                SECRETS::get);
    }

    static ConfigFile cohortConfig(Path file) throws IOException, ConfigException {
        return cohortConfig(ROOT.relativize(file).toString(), Files.readString(file));
    }
}
