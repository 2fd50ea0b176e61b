package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Policy;
import java.lang.management.ManagementFactory;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The balancer's admin port: health as JSON, per-member metrics in Prometheus text, the same meters over JMX. */
@Timeout(60)
class AdminEndpointTest {

    private final HttpClient client = HttpClient.newHttpClient();

    @Test
    void metricsListEachMembersRequestsStickyHitsAndLatency() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"))) {
            for (int i = 0; i < 4; i++) {
                lb.get("/shop/", "Cookie", "JSESSIONID=abc.n1");
            }
            String balancer = lb.server.config().name();
            lb.awaitNothingInFlight(); // a request counts as active until its last write to the client ended

            HttpResponse<String> metrics = get(lb, "/metrics");

            assertThat(metrics.statusCode()).isEqualTo(200);
            assertThat(metrics.body())
                    .contains("cohort_balancer_requests_total{balancer=\"" + balancer + "\",member=\"n1\"} 4.0")
                    .contains("cohort_balancer_sticky_hits_total{balancer=\"" + balancer + "\",member=\"n1\"} 4.0")
                    .contains("cohort_balancer_requests_total{balancer=\"" + balancer + "\",member=\"n2\"} 0.0")
                    .contains("cohort_balancer_latency_seconds_bucket{balancer=\"" + balancer + "\",member=\"n1\"")
                    .contains("cohort_balancer_active_connections{balancer=\"" + balancer + "\",member=\"n1\"} 0.0")
                    .contains("cohort_balancer_failovers_total").contains("cohort_balancer_retries_total")
                    .contains("cohort_balancer_errors_total").contains("cohort_balancer_member_up");
        }
    }

    @Test
    void healthIsUpWithTheMembersAndDownWhenNoMemberIs() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.METRIC, n1)) {
            HttpResponse<String> up = get(lb, "/health");
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());
            HttpResponse<String> down = get(lb, "/health");

            assertThat(up.statusCode()).isEqualTo(200);
            assertThat(up.body()).contains("\"status\":\"UP\"").contains("\"policy\":\"metric\"").contains("\"name\":\"n1\"")
                    .contains("\"up\":true");
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("\"status\":\"DOWN\"").contains("\"up\":false");
        }
    }

    @Test
    void metersArePublishedOverJmx() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            lb.get("/");

            assertThat(ManagementFactory.getPlatformMBeanServer().queryNames(new ObjectName("metrics:*"), null))
                    .anySatisfy(name -> assertThat(name.toString()).contains("cohortBalancerRequests"));
        }
    }

    @Test
    void theProxyPortDoesNotServeTheAdminEndpoints() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            HttpResponse<String> response = lb.get("/metrics");

            assertThat(response.body()).isEqualTo("n1");
        }
    }

    private HttpResponse<String> get(TestBalancer lb, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(lb.server.adminUri().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
