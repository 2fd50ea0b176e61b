package io.cohort.replication.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.node.CohortNode;
import io.cohort.replication.group.Await;
import io.cohort.replication.group.TestPorts;
import io.cohort.testapp.TestWars;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real nodes (embedded Jetty, a distributable test WAR) that find this module through
 * ServiceLoader: a session created on n1 is served by n2, with its attributes and n2's route, after
 * n1 stopped gracefully.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NodeFailoverTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String cluster = "e2e-" + UUID.randomUUID().toString().substring(0, 8);
    private final int port1 = TestPorts.freePort();
    private final int port2 = TestPorts.freePort();
    private CohortNode n1;
    private CohortNode n2;

    @BeforeEach
    void startTwoNodes(@TempDir Path home) throws Exception {
        n1 = node(home.resolve("n1"), "n1", port1);
        n2 = node(home.resolve("n2"), "n2", port2);
        Await.until("both nodes see each other", () -> n1.metrics() != null
                && members(n1) == 2 && members(n2) == 2);
    }

    @AfterEach
    void stopNodes() {
        if (n1 != null) {
            n1.stop();
        }
        if (n2 != null) {
            n2.stop();
        }
    }

    @Test
    void sessionCreatedOnOneNodeIsServedByTheOtherAfterAGracefulStop() throws Exception {
        HttpResponse<String> first = get(n1, "/app/session?set=cart&value=EST-1", null);
        String cookie = cookie(first, "JSESSIONID");
        assertThat(cookie).endsWith(".n1");
        String id = cookie.substring(0, cookie.lastIndexOf('.'));
        HttpResponse<String> second = get(n1, "/app/session?set=step&value=2", "JSESSIONID=" + cookie);
        assertThat(cookie(second, "COHORT_BACKUP")).as("the balancer learns where the copy is").isEqualTo("n2");

        n1.stop();
        HttpResponse<String> atN2 = get(n2, "/app/session", "JSESSIONID=" + cookie);

        assertThat(atN2.body()).contains("id=" + id, "cart=EST-1", "step=2");
        assertThat(cookie(atN2, "JSESSIONID")).isEqualTo(id + ".n2");
    }

    @Test
    void aSessionWhoseOwnerLeftAndWhoseUserNeverCameBackEndsAtTheMemberThatAnswersForItThroughTheApplication()
            throws Exception {
        String expiring = cookie(get(n1, "/app/session?set=cart&value=EST-1&maxInactive=10", null), "JSESSIONID");
        String kept = cookie(get(n1, "/app/session?set=cart&value=EST-2", null), "JSESSIONID");
        Await.until("n2 holds both copies", () -> n2.metrics().registry().find("cohort.replication.sessions.backup")
                .gauges().stream().anyMatch(g -> g.value() == 2));

        n1.stop();
        n1 = null;
        Await.until("n2 is alone", () -> members(n2) == 1);
        String id = expiring.substring(0, expiring.lastIndexOf('.'));
        // n2's sweep (once a minute) ends it once its ten seconds, and the quarter a copy may lag, are past (and before
        // the holders' own sweep drops the copy, at twice the interval)
        Await.until("n2's application heard of the end", Duration.ofSeconds(30), () -> {
            XmlNodes.scavenge(n2);
            return ended(n2).contains(id);
        });

        assertThat(ended(n2)).as("with its attributes, and only the expired session").isEqualTo(id + "{cart=EST-1}");
        assertThat(get(n2, "/app/session", "JSESSIONID=" + expiring).body()).doesNotContain("EST-1");
        assertThat(get(n2, "/app/session", "JSESSIONID=" + kept).body()).contains("cart=EST-2");
    }

    private String ended(CohortNode node) {
        try {
            return get(node, "/app/session?ended", null).body();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aRedeployHandsOverTheSessionsTheOldVersionStillServesInsteadOfTakingThemFromTheCopies(@TempDir Path wars)
            throws Exception {
        HttpResponse<String> first = get(n1, "/app/session?set=cart&value=EST-1", null);
        String cookie = cookie(first, "JSESSIONID");
        Await.until("n2 holds the copy", () -> n2.metrics().registry().find("cohort.replication.sessions.backup")
                .gauges().stream().anyMatch(g -> g.value() == 1));
        // the user's slow checkout runs in the old version (until the test releases it) and changes the session at
        // its end
        Path release = wars.resolve("release");
        var checkout = http.sendAsync(HttpRequest.newBuilder(n1.self().httpAddress().resolve("/app/slow?set=order&value=placed&until="
                        + java.net.URLEncoder.encode(release.toString(), StandardCharsets.UTF_8)))
                .header("Cookie", "JSESSIONID=" + cookie).build(), HttpResponse.BodyHandlers.ofString());
        Await.until("the checkout runs", () -> activeRequests(n1) == 1);
        Path v2 = TestWars.write(wars.resolve("app.war"), "2", true);
        var redeploy = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                n1.deployer().deploy(v2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Await.until("version 2 serves", () -> version(n1).equals("2"));
        assertThat(checkout).as("the old version still serves the checkout").isNotDone();

        // the user's next request reaches the new version while the old one still owns the session
        var nextRequest = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return get(n1, "/app/session?set=step&value=3", "JSESSIONID=" + cookie);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertThat(nextRequest).as("waits for the old version to hand its sessions over").isNotDone();
        Files.createFile(release);
        HttpResponse<String> next = nextRequest.get(20, TimeUnit.SECONDS);

        assertThat(checkout.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(next.body()).contains("cart=EST-1", "order=placed", "step=3");
        assertThat(cookie(next, "JSESSIONID")).as("the same session, still at n1").isNull();
        redeploy.get(20, TimeUnit.SECONDS);
        assertThat(get(n1, "/app/session", "JSESSIONID=" + cookie).body()).contains("cart=EST-1", "order=placed", "step=3");
    }

    @Test
    void aRedeployHandsAnIdleSessionOverAsSoonAsItIsAskedForNotWhenTheOldVersionHasDrained(@TempDir Path wars)
            throws Exception {
        HttpResponse<String> first = get(n1, "/app/session?set=cart&value=EST-1", null);
        String cookie = cookie(first, "JSESSIONID");
        Await.until("n2 holds the copy", () -> n2.metrics().registry().find("cohort.replication.sessions.backup")
                .gauges().stream().anyMatch(g -> g.value() == 1));
        // another user's long request keeps the old version draining (until the test releases it)
        Path release = wars.resolve("release");
        var other = http.sendAsync(HttpRequest.newBuilder(n1.self().httpAddress().resolve("/app/slow?until="
                        + java.net.URLEncoder.encode(release.toString(), StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        Await.until("the other request runs", () -> activeRequests(n1) == 1);
        Path v2 = TestWars.write(wars.resolve("app.war"), "2", true);
        var redeploy = java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                n1.deployer().deploy(v2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            Await.until("version 2 serves", () -> version(n1).equals("2"));

            java.time.Instant asked = java.time.Instant.now();
            HttpResponse<String> next = get(n1, "/app/session?set=step&value=3", "JSESSIONID=" + cookie);
            // the old version drains until the other request ends or its drain timeout (graceful-stop, 5 s) passes
            assertThat(java.time.Duration.between(asked, java.time.Instant.now())).as("answered while the old version drains")
                    .isLessThan(java.time.Duration.ofSeconds(4));
            assertThat(next.body()).contains("cart=EST-1", "step=3");
            assertThat(cookie(next, "JSESSIONID")).as("the same session, still at n1").isNull();
        } finally {
            Files.createFile(release);
        }
        assertThat(other.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        redeploy.get(20, TimeUnit.SECONDS);
        assertThat(get(n1, "/app/session", "JSESSIONID=" + cookie).body()).contains("cart=EST-1", "step=3");
    }

    @Test
    void aRedeployKeepsTheSessionsOfANodeWithNoOtherMemberToHoldTheirCopies(@TempDir Path wars) throws Exception {
        n2.stop();
        n2 = null;
        Await.until("n1 is alone", () -> members(n1) == 1);
        HttpResponse<String> first = get(n1, "/app/session?set=cart&value=EST-1", null);
        String cookie = cookie(first, "JSESSIONID");

        n1.deployer().deploy(TestWars.write(wars.resolve("app.war"), "2", true));
        assertThat(version(n1)).isEqualTo("2");

        HttpResponse<String> after = get(n1, "/app/session", "JSESSIONID=" + cookie);
        assertThat(after.body()).contains("cart=EST-1");
        assertThat(cookie(after, "JSESSIONID")).as("the same session").isNull();
    }

    private CohortNode node(Path home, String name, int port) throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps").resolve("app.war"), "1", true);
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="%s" host="host-%s" http-port="0" webapps="webapps" work-dir="work"
                        scan-interval="0s" graceful-stop="5s"/>
                  <admin port="0"/>
                  <cluster name="%s" cache-miss-delay="2000ms">
                    <replication-policy trigger="onRequestEnd" scope="modifiedAttributes"/>
                    <protocol>
                      <peer bind-addr="127.0.0.1" start-port="%d" range="1" timeout="500ms">
                        <member host="127.0.0.1" port="%d"/>
                        <member host="127.0.0.1" port="%d"/>
                      </peer>
                    </protocol>
                  </cluster>
                </cohort>
                """.formatted(name, name, cluster, port, port1, port2);
        return XmlNodes.start(home, xml);
    }

    private String version(CohortNode node) {
        try {
            return http.send(HttpRequest.newBuilder(node.self().httpAddress().resolve("/app/version")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    private static double activeRequests(CohortNode node) {
        return node.metrics().registry().get("cohort.http.requests.active").gauge().value();
    }

    private static int members(CohortNode node) {
        try {
            HttpResponse<String> health = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(node.self().adminAddress().resolve("/health")).build(),
                    HttpResponse.BodyHandlers.ofString());
            var matcher = java.util.regex.Pattern.compile("\"members\"\\s*:\\s*(\\d+)").matcher(health.body());
            return matcher.find() ? Integer.parseInt(matcher.group(1)) : -1;
        } catch (Exception e) {
            return -1;
        }
    }

    private HttpResponse<String> get(CohortNode node, String path, String cookies) throws Exception {
        URI uri = node.self().httpAddress().resolve(path);
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10));
        if (cookies != null) {
            request.header("Cookie", cookies);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response;
    }

    private static String cookie(HttpResponse<String> response, String name) {
        return response.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(name + "="))
                .map(c -> c.substring(name.length() + 1, c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .findFirst().orElse(null);
    }
}
