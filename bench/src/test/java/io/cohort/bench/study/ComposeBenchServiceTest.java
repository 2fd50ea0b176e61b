package io.cohort.bench.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.Reader;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import picocli.CommandLine;

/**
 * The compose file's optional {@code bench} service runs this module's {@code cohort bench} against the compose
 * cluster: its command must be one {@link BenchCommand} accepts, aimed at services that exist, with the data set
 * size the nodes load. (The file's other services are checked by the distribution's ComposeFileTest.)
 */
class ComposeBenchServiceTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static JsonNode services;

    @BeforeAll
    static void read() throws Exception {
        try (Reader in = Files.newBufferedReader(ROOT.resolve("docker-compose.yml"))) {
            Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(in); // resolves <<: *node
            services = new ObjectMapper().valueToTree(document).path("services");
        }
    }

    @Test
    void theBenchServiceRunsTheBenchImageWithACommandBenchAccepts() {
        JsonNode bench = services.path("bench");
        assertThat(bench.path("build").path("target").asText()).isEqualTo("bench");

        BenchCommand command = parse(bench);

        assertThat(command.targetBalancers).isNotEmpty()
                .allSatisfy(uri -> assertThat(services.has(uri.getHost())).as(uri + " names a service").isTrue())
                .extracting(URI::getHost).allMatch(host -> host.startsWith("balancer"));
        assertThat(command.nodeMetrics).extracting(URI::getHost)
                .containsExactlyInAnyOrderElementsOf(nodeServices());
        assertThat(command.nodeMetrics).allSatisfy(uri -> assertThat(uri.getPath()).isEqualTo("/metrics"));
        assertThat(command.patterns).as("labels the run with the nodes' replication pattern").containsExactly("2211");
        assertThat(command.out.toString()).startsWith("/results");
        assertThat(bench.path("volumes")).extracting(JsonNode::asText).contains("bench-results:/results");
    }

    @Test
    void theBenchUsesTheDataSetTheNodesLoad() {
        BenchCommand command = parse(services.path("bench"));
        for (String node : nodeServices()) {
            String options = services.path(node).path("environment").path("JAVA_TOOL_OPTIONS").asText();
            assertThat(options).as(node).contains("-Djpetstore.dataset=benchmark");
            assertThat(property(options, "jpetstore.benchmark.accounts")).as(node).isEqualTo(command.accounts);
            assertThat(property(options, "jpetstore.benchmark.products")).as(node).isEqualTo(command.products);
        }
    }

    private static BenchCommand parse(JsonNode service) {
        List<String> args = new ArrayList<>();
        service.path("command").forEach(arg -> args.add(arg.asText()));
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args.toArray(String[]::new)); // throws on any option bench does not know
        return command;
    }

    private static List<String> nodeServices() {
        List<String> nodes = new ArrayList<>();
        services.fieldNames().forEachRemaining(name -> {
            if (name.startsWith("node")) {
                nodes.add(name);
            }
        });
        assertThat(nodes).isNotEmpty();
        return nodes;
    }

    private static Integer property(String javaOptions, String name) {
        Matcher matcher = Pattern.compile("-D" + Pattern.quote(name) + "=(\\d+)").matcher(javaOptions);
        return matcher.find() ? Integer.valueOf(matcher.group(1)) : null;
    }
}
