package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.ConfigLoader;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Starting a balancer the way the {@code cohort} command will: from a configuration file, or from defaults in code. */
@Timeout(30)
class BalancerServerTest {

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void aBalancerStartsFromItsConfigurationFileAndStopsOnce() throws Exception {
        try (StubMember n1 = StubMember.start("n1"); StubMember n2 = StubMember.start("n2")) {
            String xml = """
                    <cohort xmlns="urn:cohort:config:1">
                      <balancer name="edge" port="0" admin-port="0" policy="roundrobin" graceful-stop="0s">
                        <balancer-member name="n1" url="%s"/>
                        <balancer-member name="n2" url="%s"/>
                      </balancer>
                    </cohort>""".formatted(n1.url(), n2.url());
            BalancerConfig config = ConfigLoader.parseBalancer("cohort.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
                    Path.of("."), Map.<String, String>of()::get);

            BalancerServer balancer = BalancerServer.start(config);
            CompletableFuture<Void> joined = CompletableFuture.runAsync(() -> {
                try {
                    balancer.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            HttpResponse<String> response = get(balancer.uri().resolve("/shop/"));
            HttpResponse<String> health = get(balancer.adminUri().resolve("/health"));
            balancer.stop();
            balancer.stop();

            assertThat(response.body()).isIn("n1", "n2");
            assertThat(health.body()).contains("\"balancer\":\"edge\"");
            joined.get(5, TimeUnit.SECONDS);
            assertThat(balancer.members()).extracting(MemberStatus::name).containsExactly("n1", "n2");
        }
    }

    @Test
    void aBalancerBuiltFromDefaultsInCodeServes() throws Exception {
        try (StubMember n1 = StubMember.start("n1")) {
            BalancerConfig config = BalancerConfig.defaults(List.of(new BalancerMember("n1", "localhost", n1.url(),
                    URI.create(n1.url() + "/health"), 1))).withPorts(0, 0);

            try (BalancerServer balancer = BalancerServer.start(config)) {
                assertThat(get(balancer.uri().resolve("/")).headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n1; reason=policy");
            }
        }
    }

    @Test
    void theProxyAndAdminPortsHoldABurstOfConnectionsNotJavasDefaultOfFifty() throws Exception {
        try (StubMember n1 = StubMember.start("n1")) {
            BalancerConfig config = BalancerConfig.defaults(List.of(new BalancerMember("n1", "localhost", n1.url(),
                    URI.create(n1.url() + "/health"), 1))).withPorts(0, 0);

            try (BalancerServer balancer = BalancerServer.start(config)) {
                assertThat(balancer.acceptQueueSizes()).as("the accept queues of the proxy and admin ports")
                        .containsExactly(1024, 1024);
            }
        }
    }

    private HttpResponse<String> get(URI uri) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }
}
