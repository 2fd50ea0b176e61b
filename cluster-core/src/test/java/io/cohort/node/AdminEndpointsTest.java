package io.cohort.node;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.Secret;
import io.cohort.net.RawHttpUpload;
import io.cohort.testapp.TestWars;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdminEndpointsTest {

    private final ObjectMapper json = new ObjectMapper();
    @TempDir
    Path home;
    @TempDir
    Path build;
    TestNode node;

    @BeforeEach
    void startNode() throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps/app.war"), "v1", true);
        node = TestNode.start(home, "n1", "");
    }

    @AfterEach
    void stopNode() {
        node.close();
    }

    @Test
    void aShortAdminTokenIsWorthAWarningThatNamesWhereItCameFromButNotTheToken() {
        assertThat(CohortNode.shortTokenWarning(new Secret("s3cret", "environment variable ADMIN_TOKEN"))).hasValueSatisfying(
                warning -> assertThat(warning).contains("environment variable ADMIN_TOKEN", "6 characters")
                        .doesNotContain("s3cret"));
        assertThat(CohortNode.shortTokenWarning(new Secret(TestNode.TOKEN, "environment variable ADMIN_TOKEN"))).isEmpty();
    }

    @Test
    void theNodeKeepsIdleConnectionsLongerThanABalancerDoesSoTheBalancerClosesFirst() {
        Duration balancer = BalancerConfig.defaults(List.of(new BalancerMember("n1", "localhost",
                URI.create("http://127.0.0.1:8081"), URI.create("http://127.0.0.1:9081/health"), 1))).idleTimeout();

        assertThat(node.node.idleTimeoutMillis()).as("the node's default idle-timeout, 65 s")
                .isEqualTo(Duration.ofSeconds(65).toMillis())
                .isGreaterThan(balancer.toMillis());
    }

    @Test
    void theNodesPortsHoldABurstOfConnectionsNotJavasDefaultOfFifty() {
        assertThat(node.node.acceptQueueSizes()).as("the accept queues of the HTTP and admin ports")
                .containsExactly(1024, 1024);
    }

    @Test
    void healthReportsStatusAndLoadMetric() throws Exception {
        HttpResponse<String> response = node.get(node.admin("/health"));

        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
        JsonNode health = json.readTree(response.body());
        assertThat(health.path("status").asText()).isEqualTo("UP");
        assertThat(health.path("node").asText()).isEqualTo("n1");
        assertThat(health.path("host").asText()).isEqualTo("host-n1");
        assertThat(health.path("applications").asInt()).isEqualTo(1);
        assertThat(health.path("members").asInt()).isEqualTo(1);
        double spare = health.path("load").path("spareCapacity").asDouble(-1);
        assertThat(spare).isBetween(0.0, 1.0);
        assertThat(health.path("load").path("maxThreads").asInt()).isEqualTo(200);
    }

    @Test
    void metricsArePrometheusTextWithNodeAndHttpMeters() throws Exception {
        node.get(node.app("/app/version"));
        HttpResponse<String> response = node.get(node.admin("/metrics"));

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).startsWith("text/plain"));
        assertThat(response.body())
                .contains("# TYPE cohort_http_requests_total counter")
                .containsPattern("cohort_http_requests_total\\{node=\"n1\"\\} [1-9]")
                .contains("cohort_http_threads_busy{node=\"n1\"}")
                .contains("jvm_memory_used_bytes");
    }

    @Test
    void adminEndpointsAreNotServedOnTheApplicationPort() throws Exception {
        assertThat(node.get(node.app("/health")).statusCode()).isEqualTo(404);
        assertThat(node.get(node.app("/admin/apps")).statusCode()).isEqualTo(404);
    }

    @Test
    void theBearerSchemeNameIsMatchedIgnoringCase() throws Exception {
        for (String scheme : new String[] {"bearer", "BEARER"}) {
            HttpResponse<String> response = node.send(HttpRequest.newBuilder(node.admin("/admin/apps"))
                    .header("Authorization", scheme + " " + TestNode.TOKEN));
            assertThat(response.statusCode()).as(scheme).isEqualTo(200);
        }
    }

    @Test
    void adminRequestsWithoutOrWithWrongTokenAre401AndChangeNothing() throws Exception {
        Path war = TestWars.write(build.resolve("new.war"), "new-v1", true);
        for (String authorization : new String[] {null, "Bearer wrong-token", "Basic " + TestNode.TOKEN, "Bearer "}) {
            // the node answers 401 without reading the body, with Connection: close, then reads and drops the rest
            // (at most 2 MiB, LingeringClose) before it closes the connection; a body still being sent is
            // aClientThatSendsItsWholeBodyBeforeReadingGetsTheEarlyAnswerNotAReset's case (Java's expectContinue would
            // spare sending it, but in JDK 17 it waits forever for a 401)
            HttpRequest.Builder deploy = HttpRequest.newBuilder(node.admin("/admin/apps/new"))
                    .PUT(HttpRequest.BodyPublishers.ofFile(war));
            HttpRequest.Builder undeploy = HttpRequest.newBuilder(node.admin("/admin/apps/app")).DELETE();
            HttpRequest.Builder list = HttpRequest.newBuilder(node.admin("/admin/apps"));
            HttpRequest.Builder stop = HttpRequest.newBuilder(node.admin("/admin/stop")).POST(HttpRequest.BodyPublishers.noBody());
            for (HttpRequest.Builder request : new HttpRequest.Builder[] {deploy, undeploy, list, stop}) {
                if (authorization != null) {
                    request.header("Authorization", authorization);
                }
                HttpResponse<String> response = node.send(request);
                assertThat(response.statusCode()).as("%s with %s", request.build().uri(), authorization).isEqualTo(401);
                assertThat(response.headers().firstValue("WWW-Authenticate")).isPresent();
                if (request == deploy) {
                    // its body was never read: the connection must not be reused for the next request
                    assertThat(response.headers().firstValue("Connection")).hasValue("close");
                }
            }
        }
        assertThat(node.get(node.app("/new/version")).statusCode()).isEqualTo(404);
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");
        assertThat(Files.exists(node.webapps().resolve("new.war"))).isFalse();
        assertThat(node.node.state()).isEqualTo(io.cohort.admin.NodeState.UP);
    }

    @Test
    void adminApiWithTokenDeploysListsAndUndeploys() throws Exception {
        Path war = TestWars.write(build.resolve("new.war"), "new-v1", true);
        HttpResponse<String> deployed = node.send(authorized("/admin/apps/new").PUT(HttpRequest.BodyPublishers.ofFile(war)));
        assertThat(deployed.statusCode()).isEqualTo(200);
        assertThat(json.readTree(deployed.body()).path("contextPath").asText()).isEqualTo("/new");
        assertThat(node.get(node.app("/new/version")).body()).isEqualTo("new-v1");

        JsonNode apps = json.readTree(node.send(authorized("/admin/apps")).body());
        assertThat(apps.findValuesAsText("name")).containsExactly("app", "new");

        assertThat(node.send(authorized("/admin/apps/new").DELETE()).statusCode()).isEqualTo(204);
        assertThat(node.get(node.app("/new/version")).statusCode()).isEqualTo(404);
        assertThat(node.send(authorized("/admin/apps/new").DELETE()).statusCode()).isEqualTo(404);
    }

    @Test
    void deployingABrokenWarIsRefusedAndTheOldVersionKeepsServing() throws Exception {
        Path broken = build.resolve("app.war");
        Files.writeString(broken, "this is not a zip file");
        HttpResponse<String> response = node.send(authorized("/admin/apps/app").PUT(HttpRequest.BodyPublishers.ofFile(broken)));
        assertThat(response.statusCode()).isEqualTo(422);
        assertThat(json.readTree(response.body()).path("error").asText()).contains("app");
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");
    }

    @Test
    void aWarOverMaxUploadIs413LeavesNothingOnDiskAndTheOldVersionKeepsServing() throws Exception {
        node.close();
        node = TestNode.startWithAdmin(home, "n1", "max-upload=\"1MiB\"");
        Path big = build.resolve("big.war");
        byte[] bytes = new byte[2 * 1024 * 1024];
        new java.util.Random(1).nextBytes(bytes);
        Files.write(big, bytes);

        // declared too large: refused before a byte is read
        HttpResponse<String> declared = node.send(authorized("/admin/apps/app").PUT(HttpRequest.BodyPublishers.ofFile(big)));
        // not declared (chunked): refused once more than 1 MiB has arrived
        HttpResponse<String> streamed = node.send(authorized("/admin/apps/app").PUT(HttpRequest.BodyPublishers.ofInputStream(() -> {
            try {
                return Files.newInputStream(big);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        })));

        for (HttpResponse<String> response : List.of(declared, streamed)) {
            assertThat(response.statusCode()).isEqualTo(413);
            assertThat(json.readTree(response.body()).path("error").asText()).contains("max-upload");
        }
        try (var files = Files.list(node.webapps())) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no upload left behind").containsExactly("app.war");
        }
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");

        Path small = TestWars.write(build.resolve("small.war"), "v2", true);
        assertThat(Files.size(small)).isLessThan(1024 * 1024);
        assertThat(node.send(authorized("/admin/apps/app").PUT(HttpRequest.BodyPublishers.ofFile(small))).statusCode()).isEqualTo(200);
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v2");
    }

    @Test
    void aClientThatSendsItsWholeBodyBeforeReadingGetsTheEarlyAnswerNotAReset() throws Exception {
        node.close();
        node = TestNode.startWithAdmin(home, "n1", "max-upload=\"1MiB\"");
        byte[] war = new byte[2 * 1024 * 1024];
        new java.util.Random(1).nextBytes(war);
        String token = "Authorization: Bearer " + TestNode.TOKEN;

        // declared too large: answered before the body is read
        RawHttpUpload.Answer declared = sendAllThenRead(war, war.length, 64 * 1024, token);
        // not declared (chunked): answered once more than 1 MiB has arrived
        RawHttpUpload.Answer streamed = sendAllThenRead(war, -1, 1024 * 1024 + 64 * 1024, token);
        // no token: answered before the body is read
        RawHttpUpload.Answer unauthorized = sendAllThenRead(war, war.length, 64 * 1024);

        for (RawHttpUpload.Answer answer : List.of(declared, streamed)) {
            assertThat(answer.status()).isEqualTo(413);
            assertThat(json.readTree(answer.body()).path("error").asText()).contains("max-upload");
        }
        assertThat(unauthorized.status()).isEqualTo(401);
        for (RawHttpUpload.Answer answer : List.of(declared, streamed, unauthorized)) {
            assertThat(answer.headers()).containsEntry("connection", "close");
        }
        try (var files = Files.list(node.webapps())) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no upload left behind").containsExactly("app.war");
        }
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v1");
    }

    /**
     * Sends {@code body} as {@code PUT /admin/apps/app} the way Java's HttpClient and many scripts do, all of it before
     * reading, except that it waits for the node's answer after {@code sentBeforeAnswer} bytes and then a second more,
     * so that a node that closes the connection once it has answered has certainly closed it before the rest is sent.
     */
    private RawHttpUpload.Answer sendAllThenRead(byte[] body, long declaredLength, int sentBeforeAnswer, String... headers)
            throws Exception {
        try (RawHttpUpload upload = RawHttpUpload.start(node.admin("/"), "/admin/apps/app", declaredLength, headers)) {
            return upload.sendAllThenRead(body, sentBeforeAnswer);
        }
    }

    private HttpRequest.Builder authorized(String path) {
        return HttpRequest.newBuilder(node.admin(path)).header("Authorization", "Bearer " + TestNode.TOKEN);
    }
}
