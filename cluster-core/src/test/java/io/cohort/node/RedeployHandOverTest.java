package io.cohort.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.testapp.TestWars;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A redeploy whose old version hands its sessions to the store only as it stops (the onShutdown
 * trigger): a request for one of them waits until they are in the store, even once the old version
 * has dropped them from memory and its store is still writing them. And one whose store takes a
 * session early, but confirms it late: every request for that session waits for the confirmation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedeployHandOverTest {

    private static final String CLUSTER = """
            <cluster name="handover"><protocol><peer/></protocol></cluster>""";

    @TempDir
    Path home;
    @TempDir
    Path build;
    private final HandOverAtStopStores stores = new HandOverAtStopStores();
    private TestNode node;

    @AfterEach
    void stopNode() {
        stores.releaseHandOver();
        if (node != null) {
            node.close();
        }
    }

    @Test
    void aRequestArrivingWhileTheOldVersionsStoreStillWritesItsSessionsWaitsForThem() throws Exception {
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps/app.war"), "v1", true);
        node = TestNode.start(home, "n1", CLUSTER, List.of(stores));
        HttpResponse<String> set = node.get(node.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = set.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];

        Path v2 = TestWars.write(build.resolve("app.war"), "v2", true);
        CompletableFuture<Void> redeploy = CompletableFuture.runAsync(() -> {
            try {
                node.node.deployer().deploy(v2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        // the old version has drained, given its session to the store and dropped it from memory; the store writes it
        // only when released
        stores.awaitHandingOver();
        assertThat(node.get(node.app("/app/version")).body()).isEqualTo("v2");

        CompletableFuture<HttpResponse<String>> during = CompletableFuture.supplyAsync(() -> {
            try {
                return node.http.send(HttpRequest.newBuilder(node.app("/app/session?set=step&value=3"))
                        .header("Cookie", sessionCookie).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(300);
        assertThat(during).as("waits for the hand-over").isNotDone();
        stores.releaseHandOver();

        HttpResponse<String> answer = during.get(20, TimeUnit.SECONDS);
        assertThat(answer.body()).contains("cart=EST-1", "step=3");
        assertThat(answer.headers().allValues("Set-Cookie")).as("no new session").noneMatch(c -> c.startsWith("JSESSIONID="));
        redeploy.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aSecondRequestForASessionBeingHandedOverEarlyWaitsForTheSameHandOver() throws Exception {
        LateHandOverStores late = new LateHandOverStores();
        Files.createDirectories(home.resolve("webapps"));
        TestWars.write(home.resolve("webapps/app.war"), "v1", true);
        node = TestNode.start(home, "n1", CLUSTER, List.of(late));
        HttpResponse<String> set = node.get(node.app("/app/session?set=cart&value=EST-1"));
        String sessionCookie = set.headers().firstValue("Set-Cookie").orElseThrow().split(";", 2)[0];
        // another user's request keeps the old version draining until the test releases it
        Path release = build.resolve("release");
        CompletableFuture<HttpResponse<String>> other = node.http.sendAsync(HttpRequest.newBuilder(node.app("/app/slow?until="
                + java.net.URLEncoder.encode(release.toString(), java.nio.charset.StandardCharsets.UTF_8))).build(),
                HttpResponse.BodyHandlers.ofString());
        Path v2 = TestWars.write(build.resolve("app.war"), "v2", true);
        CompletableFuture<Void> redeploy = CompletableFuture.runAsync(() -> {
            try {
                node.node.deployer().deploy(v2);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!node.get(node.app("/app/version")).body().equals("v2") && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }

            CompletableFuture<HttpResponse<String>> first = sessionRequest(sessionCookie);
            late.awaitHandOverAsked(); // the old version handed the session to its store, which confirms it later
            CompletableFuture<HttpResponse<String>> second = sessionRequest(sessionCookie);
            Thread.sleep(300);
            assertThat(first).as("the first request waits for the hand-over").isNotDone();
            assertThat(second).as("so does the second").isNotDone();
            late.releaseHandOvers();

            for (CompletableFuture<HttpResponse<String>> request : List.of(first, second)) {
                HttpResponse<String> answer = request.get(20, TimeUnit.SECONDS);
                assertThat(answer.body()).contains("cart=EST-1");
                assertThat(answer.headers().allValues("Set-Cookie")).as("no new session").noneMatch(c -> c.startsWith("JSESSIONID="));
            }
        } finally {
            late.releaseHandOvers();
            Files.createFile(release);
        }
        assertThat(other.get(20, TimeUnit.SECONDS).body()).isEqualTo("released");
        redeploy.get(20, TimeUnit.SECONDS);
    }

    private CompletableFuture<HttpResponse<String>> sessionRequest(String sessionCookie) {
        return node.http.sendAsync(HttpRequest.newBuilder(node.app("/app/session")).header("Cookie", sessionCookie)
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
