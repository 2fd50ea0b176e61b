package io.cohort.replication.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.node.CohortNode;
import io.cohort.replication.group.Await;
import io.cohort.testapp.TestWars;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A redeploy on the only node of a cluster replicated through the database (embedded H2): the
 * sessions the old version served, and the change its last in-flight request made, are what the new
 * version serves, whichever trigger writes them to the database.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatabaseRedeployTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private CohortNode node;

    @AfterEach
    void stopNode() {
        if (node != null) {
            node.stop();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"onSetAttribute", "onRequestEnd", "onShutdown"})
    void aRedeployKeepsTheSessionsAndTheChangesOfTheRequestsTheOldVersionFinishes(String trigger, @TempDir Path home)
            throws Exception {
        node = start(home, trigger);
        String cookie = cookie(get("/app/session?set=cart&value=EST-1", null));
        // the user's slow checkout runs in the old version until the test releases it, and changes the session at its end
        Path release = home.resolve("release");
        var checkout = http.sendAsync(request("/app/slow?set=order&value=placed&until="
                + URLEncoder.encode(release.toString(), StandardCharsets.UTF_8), cookie).build(),
                HttpResponse.BodyHandlers.ofString());
        Await.until("the checkout runs", () -> activeRequests() == 1);
        Path v2 = TestWars.write(home.resolve("app.war"), "2", true);
        var redeploy = CompletableFuture.runAsync(() -> {
            try {
                node.deployer().deploy(v2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Await.until("version 2 serves", () -> version().equals("2"));

        var nextRequest = CompletableFuture.supplyAsync(() -> {
            try {
                return get("/app/session?set=step&value=3", cookie);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Files.createFile(release);
        HttpResponse<String> next = nextRequest.get(20, TimeUnit.SECONDS);

        assertThat(checkout.get(10, TimeUnit.SECONDS).body()).isEqualTo("released");
        assertThat(next.body()).contains("cart=EST-1", "order=placed", "step=3");
        assertThat(cookie(next)).as("the same session").isNull();
        redeploy.get(20, TimeUnit.SECONDS);
        assertThat(get("/app/session", cookie).body()).contains("cart=EST-1", "order=placed", "step=3");
    }

    private static CohortNode start(Path home, String trigger) throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps").resolve("app.war"), "1", true);
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" host="host-n1" http-port="0" webapps="webapps" work-dir="work"
                        scan-interval="0s" graceful-stop="5s"/>
                  <admin port="0"/>
                  <cluster name="db-redeploy">
                    <replication-policy trigger="%s" scope="modifiedAttributes"/>
                    <protocol>
                      <database url="jdbc:h2:mem:redeploy-%s;DB_CLOSE_DELAY=-1" user="sa"/>
                    </protocol>
                  </cluster>
                </cohort>
                """.formatted(trigger, UUID.randomUUID().toString().substring(0, 8));
        return XmlNodes.start(home, xml);
    }

    private HttpRequest.Builder request(String path, String cookie) {
        HttpRequest.Builder request = HttpRequest.newBuilder(node.self().httpAddress().resolve(path))
                .timeout(Duration.ofSeconds(20));
        return cookie == null ? request : request.header("Cookie", "JSESSIONID=" + cookie);
    }

    private HttpResponse<String> get(String path, String cookie) throws Exception {
        HttpResponse<String> response = http.send(request(path, cookie).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response;
    }

    private String version() {
        try {
            return http.send(request("/app/version", null).build(), HttpResponse.BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    private double activeRequests() {
        return node.metrics().registry().get("cohort.http.requests.active").gauge().value();
    }

    /** The value of the JSESSIONID cookie the response sets, or null. */
    private static String cookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID="))
                .map(c -> c.substring("JSESSIONID=".length(), c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .findFirst().orElse(null);
    }
}
