package io.cohort.replication.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.node.CohortNode;
import io.cohort.testapp.TestWars;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two real nodes replicating through one database (embedded H2): the sessions of a node that is gone, which expired
 * long enough ago that a live owner would have ended them itself, end at the other node through the application
 * (its session listeners hear of them, with their attributes), whether their user comes back or not.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatabaseSessionEndTest {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url = "jdbc:h2:mem:session-end-" + UUID.randomUUID().toString().substring(0, 8)
            + ";DB_CLOSE_DELAY=-1";
    private CohortNode n1;
    private CohortNode n2;

    @BeforeEach
    void startTwoNodes(@TempDir Path home) throws Exception {
        n1 = start(home.resolve("n1"), "n1");
        n2 = start(home.resolve("n2"), "n2");
    }

    @AfterEach
    void stopNodes() {
        if (n1 != null) {
            n1.stop();
        }
        n2.stop();
    }

    @Test
    void sessionsOfAGoneNodeLongExpiredEndAtTheOtherNodeThroughTheApplication() throws Exception {
        String returning = cookie(get(n1, "/app/session?set=cart&value=EST-1", null));
        String abandoned = cookie(get(n1, "/app/session?set=cart&value=EST-2", null));
        String live = cookie(get(n1, "/app/session?set=cart&value=EST-3", null));
        n1.stop();
        n1 = null;
        // 5-minute sessions untouched for 11 minutes: their owner, were it alive, would have ended them long ago (the
        // database's sweeper would delete them a minute from now, silently)
        age(idOf(returning), Duration.ofMinutes(11));
        age(idOf(abandoned), Duration.ofMinutes(11));

        HttpResponse<String> comesBack = get(n2, "/app/session", returning);
        XmlNodes.scavenge(n2);

        assertThat(comesBack.body()).as("a new session").doesNotContain("EST-1");
        assertThat(ended(n2).lines()).as("what n2's application heard the end of").containsExactlyInAnyOrder(
                idOf(returning) + "{cart=EST-1}", idOf(abandoned) + "{cart=EST-2}");
        assertThat(rows(idOf(returning)) + rows(idOf(abandoned))).as("their rows are gone").isZero();
        assertThat(get(n2, "/app/session", live).body()).contains("cart=EST-3");
    }

    /** Makes the session's row look last used {@code ago}, with a 5-minute interval. */
    private void age(String id, Duration ago) throws Exception {
        long lastAccessed = System.currentTimeMillis() - ago.toMillis();
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement update = connection.prepareStatement("UPDATE cohort_sessions SET last_accessed = ?, "
                     + "max_inactive_ms = ?, expiry = ? WHERE id = ?")) {
            update.setLong(1, lastAccessed);
            update.setLong(2, 300_000);
            update.setLong(3, lastAccessed + 300_000);
            update.setString(4, id);
            assertThat(update.executeUpdate()).isEqualTo(1);
        }
    }

    private int rows(String id) throws Exception {
        try (Connection connection = DriverManager.getConnection(url, "sa", "");
             PreparedStatement select = connection.prepareStatement(
                     "SELECT (SELECT COUNT(*) FROM cohort_sessions WHERE id = ?) + "
                             + "(SELECT COUNT(*) FROM cohort_session_attributes WHERE id = ?)")) {
            select.setString(1, id);
            select.setString(2, id);
            try (ResultSet count = select.executeQuery()) {
                count.next();
                return count.getInt(1);
            }
        }
    }

    private CohortNode start(Path home, String name) throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps").resolve("app.war"), "1", true);
        return XmlNodes.start(home, """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="%s" host="host-%s" http-port="0" webapps="webapps" work-dir="work"
                        scan-interval="0s" graceful-stop="5s"/>
                  <admin port="0"/>
                  <cluster name="db-session-end">
                    <replication-policy trigger="onRequestEnd" scope="modifiedAttributes"/>
                    <protocol>
                      <database url="%s" user="sa"/>
                    </protocol>
                  </cluster>
                </cohort>
                """.formatted(name, name, url));
    }

    private String ended(CohortNode node) throws Exception {
        return get(node, "/app/session?ended", null).body();
    }

    private HttpResponse<String> get(CohortNode node, String path, String cookie) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(node.self().httpAddress().resolve(path))
                .timeout(Duration.ofSeconds(20));
        if (cookie != null) {
            request.header("Cookie", "JSESSIONID=" + cookie);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response;
    }

    /** The value of the JSESSIONID cookie the response sets. */
    private static String cookie(HttpResponse<String> response) {
        return response.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("JSESSIONID="))
                .map(c -> c.substring("JSESSIONID=".length(), c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                .findFirst().orElseThrow(() -> new AssertionError("no session cookie in " + response.headers().map()));
    }

    private static String idOf(String sessionCookie) {
        return sessionCookie.substring(0, sessionCookie.lastIndexOf('.'));
    }
}
