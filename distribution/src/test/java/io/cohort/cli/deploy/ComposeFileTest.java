package io.cohort.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.CohortConfig;
import io.cohort.config.Discovery;
import io.cohort.config.PeerProtocol;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * docker-compose.yml and the Dockerfile, checked without a Docker engine: the services the README
 * promises, images built from the Dockerfile's stages, the configuration files they mount (present,
 * and valid for Cohort's own config loader), and that the pieces agree with each other: discovery
 * names, addresses, ports, health checks, secrets from the environment.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ComposeFileTest {

    private static final Path COMPOSE = DeployFiles.ROOT.resolve("docker-compose.yml");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z_][A-Z0-9_]*)(:?[?-][^}]*)?}");
    private static JsonNode compose;
    private static JsonNode services;

    @BeforeAll
    static void read() throws Exception {
        compose = DeployFiles.yaml(COMPOSE);
        services = compose.path("services");
    }

    @Test
    void definesTheDatabaseThreeNodesTwoBalancersAndTheBenchAsAnOptionalProfile() {
        assertThat(fieldNames(services)).containsExactlyInAnyOrder("postgres", "node1", "node2", "node3", "balancer1",
                "balancer2", "bench");
        assertThat(services.path("bench").path("profiles")).extracting(JsonNode::asText).containsExactly("bench");
        for (String service : List.of("postgres", "node1", "node2", "node3", "balancer1", "balancer2")) {
            assertThat(services.path(service).has("profiles")).as(service + " starts by default").isFalse();
        }
        assertThat(services.path("postgres").path("image").asText()).startsWith("postgres:");
    }

    @Test
    void cohortServicesRunTheImageBuiltFromTheDockerfile() throws Exception {
        Dockerfile dockerfile = Dockerfile.read(DeployFiles.ROOT.resolve("Dockerfile"));
        Map<String, String> builtImages = new LinkedHashMap<>();
        for (String name : fieldNames(services)) {
            JsonNode build = services.path(name).path("build");
            if (build.isMissingNode()) {
                continue;
            }
            Path context = DeployFiles.ROOT.resolve(build.path("context").asText()).normalize();
            assertThat(context.resolve(build.path("dockerfile").asText("Dockerfile")).normalize()).as(name + "'s Dockerfile")
                    .isEqualTo(DeployFiles.ROOT.resolve("Dockerfile")).isRegularFile();
            assertThat(dockerfile.stages()).as(name + "'s build target").contains(build.path("target").asText());
            builtImages.put(services.path(name).path("image").asText(), build.path("target").asText());
        }
        assertThat(builtImages).containsEntry("cohort:latest", "cohort");
        for (String name : List.of("node1", "node2", "node3", "balancer1", "balancer2")) {
            assertThat(services.path(name).path("image").asText()).as(name).isEqualTo("cohort:latest");
        }
    }

    @Test
    void dockerfileBuildsInStagesAndRunsAsAnUnprivilegedUserOnASmallJre() throws Exception {
        Dockerfile dockerfile = Dockerfile.read(DeployFiles.ROOT.resolve("Dockerfile"));

        assertThat(dockerfile.stages()).startsWith("build").endsWith("cohort");
        assertThat(dockerfile.baseOf("cohort")).matches("eclipse-temurin:17-jre-alpine");
        String user = dockerfile.last("cohort", "USER").orElseThrow();
        assertThat(user.split(":")[0]).isNotIn("root", "0");
        assertThat(dockerfile.last("cohort", "ENTRYPOINT").orElseThrow()).contains("io.cohort.cli.Main");
        assertThat(dockerfile.all("cohort", "COPY")).anySatisfy(copy ->
                assertThat(copy).startsWith("--from=build").contains("distribution/target/cohort/"));
        for (String source : dockerfile.contextSources()) {
            assertThat(DeployFiles.ROOT.resolve(source)).as("COPY source " + source).exists();
        }
        assertThat(Files.readString(DeployFiles.ROOT.resolve(".dockerignore"))).contains("**/target/");
    }

    @Test
    void mountedConfigurationsExistAndAreValidForTheConfigLoader() throws Exception {
        for (String name : fieldNames(services)) {
            for (JsonNode volume : services.path(name).path("volumes")) {
                String[] parts = volume.asText().split(":");
                if (!parts[0].startsWith("./")) {
                    assertThat(compose.path("volumes").has(parts[0])).as(name + ": named volume " + parts[0] + " declared").isTrue();
                    continue;
                }
                Path file = DeployFiles.ROOT.resolve(parts[0]).normalize();
                assertThat(file).as(name + " mounts " + parts[0]).isRegularFile();
                assertThat(parts).as(name + ": configuration mounted read-only").hasSize(3).endsWith("ro");
                DeployFiles.cohortConfig(file);
                assertThat(commandOf(name)).as(name + " runs with the file it mounts").contains("--config", parts[1]);
            }
        }
    }

    @Test
    void nodesFindEachOtherByDnsUnderANameEveryNodeServiceAnswersTo() throws Exception {
        Set<String> names = new HashSet<>();
        for (String service : List.of("node1", "node2", "node3")) {
            CohortConfig node = nodeConfig(service);
            names.add(node.node().name());
            PeerProtocol peer = (PeerProtocol) node.cluster().orElseThrow().protocol();
            assertThat(peer.discovery()).isEqualTo(Discovery.DNS);
            assertThat(services.path(service).path("networks").path("default").path("aliases"))
                    .extracting(JsonNode::asText).as(service + " answers to the discovery name")
                    .contains(peer.dnsQuery().orElseThrow());
            assertThat(peer.bindAddress()).as("replication binds to the container's own name")
                    .isEqualTo(services.path(service).path("hostname").asText());
            assertThat(node.node().bindAddress()).isEqualTo("0.0.0.0");
            assertThat(node.admin().bindAddress()).isEqualTo("0.0.0.0");
            assertThat(node.cluster().orElseThrow().security()).as("members authenticate").isPresent();
            assertThat(node.dataSources()).singleElement().satisfies(ds ->
                    assertThat(ds.url()).startsWith("jdbc:postgresql://postgres:5432/"
                            + services.path("postgres").path("environment").path("POSTGRES_DB").asText()));
            assertThat(String.join(" ", healthCheckOf(service)))
                    .contains("http://127.0.0.1:" + node.admin().port() + "/health");
            assertThat(node.node().webapps().toString()).isEqualTo("/opt/cohort/webapps");
        }
        assertThat(names).hasSize(3);
    }

    @Test
    void eachBalancerKnowsEveryNodeByItsServiceNameAndPorts() throws Exception {
        Set<String> hosts = new HashSet<>();
        for (String service : List.of("balancer1", "balancer2")) {
            BalancerConfig balancer = DeployFiles.cohortConfig(mountedConfig(service)).balancer().orElseThrow();
            hosts.add(balancer.host());
            assertThat(balancer.members()).extracting(BalancerMember::name).containsExactly("n1", "n2", "n3");
            for (BalancerMember member : balancer.members()) {
                String nodeService = member.url().getHost();
                CohortConfig node = nodeConfig(nodeService);
                assertThat(member.name()).isEqualTo(node.node().name());
                assertThat(member.host()).isEqualTo(node.node().host());
                assertThat(member.url().getPort()).isEqualTo(node.node().httpPort());
                assertThat(member.healthUrl().getHost()).isEqualTo(nodeService);
                assertThat(member.healthUrl().getPort()).isEqualTo(node.admin().port());
            }
            assertThat(services.path(service).path("ports")).extracting(JsonNode::asText)
                    .anySatisfy(port -> assertThat(port).endsWith(":" + balancer.port()));
            assertThat(String.join(" ", healthCheckOf(service)))
                    .contains("http://127.0.0.1:" + balancer.adminPort() + "/health");
        }
        assertThat(hosts).as("one balancer per host").containsExactlyInAnyOrder("host1", "host2");
    }

    @Test
    void secretsComeFromTheEnvironmentAndTheExampleEnvFileNamesThemAll() throws Exception {
        String text = Files.readString(COMPOSE);
        Set<String> variables = new HashSet<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            variables.add(m.group(1));
        }
        assertThat(variables).contains("COHORT_ADMIN_TOKEN", "COHORT_CLUSTER_SECRET", "POSTGRES_PASSWORD");
        Set<String> example = new HashSet<>();
        for (String line : Files.readAllLines(DeployFiles.ROOT.resolve("deploy/compose/env.example"))) {
            if (!line.isBlank() && !line.startsWith("#")) {
                example.add(line.substring(0, line.indexOf('=')));
            }
        }
        assertThat(example).containsAll(variables);
        for (String service : List.of("node1", "node2", "node3")) {
            JsonNode environment = services.path(service).path("environment");
            CohortConfig node = nodeConfig(service);
            List<String> named = new ArrayList<>(List.of("COHORT_ADMIN_TOKEN", "COHORT_CLUSTER_SECRET", "COHORT_DB_PASSWORD"));
            for (String variable : named) {
                assertThat(environment.path(variable).asText()).as(service + " " + variable).matches("\\$\\{[A-Z_]+:\\?.+}");
            }
            assertThat(node.admin().token()).isPresent();
        }
        assertThat(services.path("postgres").path("environment").path("POSTGRES_PASSWORD").asText()).startsWith("${");
    }

    @Test
    void everyServiceThatOthersWaitForHasAHealthCheckAndDependenciesExist() {
        for (String name : fieldNames(services)) {
            for (String dependency : fieldNames(services.path(name).path("depends_on"))) {
                assertThat(services.has(dependency)).as(name + " depends on " + dependency).isTrue();
                if (services.path(name).path("depends_on").path(dependency).path("condition").asText().equals("service_healthy")) {
                    assertThat(services.path(dependency).has("healthcheck")).as(dependency + " has a health check").isTrue();
                }
            }
        }
        for (String name : List.of("postgres", "node1", "node2", "node3", "balancer1", "balancer2")) {
            assertThat(healthCheckOf(name)).as(name).isNotEmpty();
        }
    }

    private static CohortConfig nodeConfig(String service) throws Exception {
        return DeployFiles.cohortConfig(mountedConfig(service)).node().orElseThrow();
    }

    private static Path mountedConfig(String service) {
        for (JsonNode volume : services.path(service).path("volumes")) {
            String source = volume.asText().split(":")[0];
            if (source.endsWith(".xml")) {
                return DeployFiles.ROOT.resolve(source).normalize();
            }
        }
        throw new AssertionError(service + " mounts no configuration file");
    }

    private static List<String> commandOf(String service) {
        List<String> command = new ArrayList<>();
        services.path(service).path("command").forEach(part -> command.add(part.asText()));
        return command;
    }

    private static List<String> healthCheckOf(String service) {
        List<String> test = new ArrayList<>();
        services.path(service).path("healthcheck").path("test").forEach(part -> test.add(part.asText()));
        return test;
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
