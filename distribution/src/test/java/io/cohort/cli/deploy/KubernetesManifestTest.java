package io.cohort.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.CohortConfig;
import io.cohort.config.Discovery;
import io.cohort.config.PeerProtocol;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * deploy/kubernetes/cohort.yaml, checked without a cluster: it parses, has the headless service the
 * nodes discover each other through, and the configurations it mounts (the node template once its
 * placeholders are filled in as the init container does, and the balancer's) are valid for Cohort's
 * config loader and agree with the services, the StatefulSet and the secrets.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class KubernetesManifestTest {

    private static final Path MANIFEST = DeployFiles.ROOT.resolve("deploy/kubernetes/cohort.yaml");
    private static final Pattern PLACEHOLDER = Pattern.compile("@([A-Z_]+)@");
    private static List<JsonNode> documents;

    @BeforeAll
    static void read() throws Exception {
        documents = DeployFiles.yamlDocuments(MANIFEST);
    }

    @Test
    void declaresConfigurationsAHeadlessServiceTheNodesTheBalancersAndTheirService() {
        assertThat(documents).extracting(d -> d.path("kind").asText() + "/" + d.path("metadata").path("name").asText())
                .containsExactlyInAnyOrder("ConfigMap/cohort-node", "ConfigMap/cohort-balancer", "Service/cohort-peers",
                        "StatefulSet/cohort", "Deployment/cohort-balancer", "Service/cohort");
        JsonNode peers = find("Service", "cohort-peers");
        assertThat(peers.path("spec").path("clusterIP").asText()).isEqualTo("None");
        assertThat(peers.path("spec").path("publishNotReadyAddresses").asBoolean()).isTrue();
        JsonNode nodes = find("StatefulSet", "cohort");
        assertThat(nodes.path("spec").path("serviceName").asText()).isEqualTo("cohort-peers");
        assertThat(nodes.path("spec").path("template").path("metadata").path("labels"))
                .isEqualTo(peers.path("spec").path("selector"));
        assertThat(find("Service", "cohort").path("spec").path("selector")).isEqualTo(
                find("Deployment", "cohort-balancer").path("spec").path("template").path("metadata").path("labels"));
    }

    @Test
    void nodeTemplateFilledInAsTheInitContainerDoesIsAValidNodeThatDiscoversPeersThroughTheHeadlessService()
            throws Exception {
        String template = find("ConfigMap", "cohort-node").path("data").path("cohort.xml").asText();
        JsonNode pod = find("StatefulSet", "cohort").path("spec").path("template").path("spec");
        String sed = String.join(" ", texts(pod.path("initContainers").get(0).path("command")));
        Set<String> placeholders = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            placeholders.add(m.group(1));
            assertThat(sed).as("the init container fills in @" + m.group(1) + "@").contains("s/@" + m.group(1) + "@/");
        }
        assertThat(placeholders).containsExactlyInAnyOrder("NODE_NAME", "HOST", "POD_IP");

        String filled = template.replace("@NODE_NAME@", "cohort-0").replace("@HOST@", "worker-1")
                .replace("@POD_IP@", "10.42.0.7");
        CohortConfig node = DeployFiles.cohortConfig("cohort-node/cohort.xml", filled).node().orElseThrow();

        assertThat(node.node().name()).isEqualTo("cohort-0");
        PeerProtocol peer = (PeerProtocol) node.cluster().orElseThrow().protocol();
        assertThat(peer.discovery()).isEqualTo(Discovery.DNS);
        assertThat(peer.dnsQuery()).contains("cohort-peers");
        assertThat(peer.bindAddress()).isEqualTo("10.42.0.7");
        JsonNode container = pod.path("containers").get(0);
        assertThat(texts(container.path("args"))).containsExactly("node", "--config", "/etc/cohort/cohort.xml");
        assertThat(ports(container)).contains(node.node().httpPort(), node.admin().port(), peer.startPort());
        assertThat(container.path("readinessProbe").path("httpGet").path("path").asText()).isEqualTo("/health");
        List<String> secretVariables = new ArrayList<>();
        for (JsonNode variable : container.path("env")) {
            assertThat(variable.path("valueFrom").path("secretKeyRef").path("name").asText())
                    .as(variable.path("name").asText() + " comes from the secret").isEqualTo("cohort-secrets");
            secretVariables.add(variable.path("name").asText());
        }
        assertThat(secretVariables).containsExactlyInAnyOrderElementsOf(DeployFiles.SECRETS.keySet());
        assertThat(pod.path("securityContext").path("runAsNonRoot").asBoolean()).isTrue();
    }

    @Test
    void balancerConfigurationNamesEveryPodOfTheStatefulSetThroughTheHeadlessService() throws Exception {
        String xml = find("ConfigMap", "cohort-balancer").path("data").path("balancer.xml").asText();
        BalancerConfig balancer = DeployFiles.cohortConfig("cohort-balancer/balancer.xml", xml).balancer().orElseThrow();
        int replicas = find("StatefulSet", "cohort").path("spec").path("replicas").asInt();

        assertThat(balancer.members()).hasSize(replicas);
        for (int k = 0; k < replicas; k++) {
            BalancerMember member = balancer.members().get(k);
            assertThat(member.name()).isEqualTo("cohort-" + k);
            assertThat(member.url().getHost()).isEqualTo("cohort-" + k + ".cohort-peers");
            assertThat(member.url().getPort()).isEqualTo(8081);
            assertThat(member.healthUrl().getPort()).isEqualTo(9081);
        }
        JsonNode container = find("Deployment", "cohort-balancer").path("spec").path("template").path("spec")
                .path("containers").get(0);
        assertThat(ports(container)).contains(balancer.port(), balancer.adminPort());
    }

    private static JsonNode find(String kind, String name) {
        return documents.stream()
                .filter(d -> d.path("kind").asText().equals(kind) && d.path("metadata").path("name").asText().equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in " + MANIFEST));
    }

    private static List<Integer> ports(JsonNode container) {
        List<Integer> ports = new ArrayList<>();
        container.path("ports").forEach(p -> ports.add(p.path("containerPort").asInt()));
        return ports;
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        array.forEach(t -> texts.add(t.asText()));
        return texts;
    }
}
