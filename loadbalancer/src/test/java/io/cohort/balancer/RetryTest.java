package io.cohort.balancer;

import static io.cohort.balancer.TestBalancer.routedTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Policy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * At most one retry per request, on another member, and only when the request cannot run twice:
 * it never reached the first member, or it is idempotent and no body had been read.
 */
@Timeout(60)
class RetryTest {

    @Test
    void aPostWhoseMemberDiesAfterReceivingItIsNotReplayed() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, n2)) {
            HttpResponse<String> response = lb.post("/die", "order=42");

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(n1.dying() + n2.dying()).as("members that received the POST").isEqualTo(1);
            assertThat(lb.server.backends().stream().mapToDouble(b -> b.meters().retries.count()).sum()).isZero();
        }
    }

    @Test
    void aMemberThatThinksLongerThanTheIdleTimeoutStillAnswersWithinTheRequestTimeout() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.idleTimeout = Duration.ofSeconds(1);
        settings.requestTimeout = Duration.ofSeconds(20);
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            CompletableFuture<HttpResponse<String>> answer = lb.sendAsync(HttpRequest.newBuilder(lb.server.uri().resolve("/hold")).GET());
            n1.awaitHeld();
            Thread.sleep(2_500); // the member sends nothing for 2.5 times the idle timeout
            n1.releaseHeld();

            assertThat(answer.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
            assertThat(lb.backend("n1").meters().errors.count()).isZero();
        }
    }

    @Test
    void aMemberThatDoesNotAnswerWithinTheRequestTimeoutGets504AndIsNotRetried() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.ROUND_ROBIN;
        settings.requestTimeout = Duration.ofSeconds(1);
        try (TestBalancer lb = TestBalancer.start(settings, n1, n2)) {
            HttpResponse<String> response = lb.get("/hold");

            assertThat(response.statusCode()).isEqualTo(504);
            assertThat(lb.server.backends().stream().mapToDouble(b -> b.meters().retries.count()).sum()).as("not retried")
                    .isZero();
            assertThat(lb.server.backends().stream().mapToDouble(b -> b.meters().errors.count()).sum()).isEqualTo(1);
            n1.releaseHeld();
            n2.releaseHeld();
        }
    }

    @Test
    void aPostWithoutABodyThatTheMemberReadBeforeItDroppedTheConnectionIsNeverReplayed() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.ROUND_ROBIN;
        try (TestBalancer lb = TestBalancer.start(settings, n1, n2)) {
            int replayed = 0;
            for (int i = 0; i < 40; i++) { // the member may close before the balancer saw its own write complete
                HttpResponse<String> response = lb.send(HttpRequest.newBuilder(lb.server.uri().resolve("/die"))
                        .POST(HttpRequest.BodyPublishers.noBody()), "Cookie", "JSESSIONID=node0ab.n1");
                if (response.statusCode() != 502) {
                    replayed++;
                }
                lb.backend("n1").health().checkPassed(); // back in rotation for the next round, if it was taken out
            }

            assertThat(replayed).as("POSTs answered by another member after n1 had read them").isZero();
            assertThat(n2.dying() + n2.served()).isZero();
            assertThat(lb.backend("n1").isUp()).as("a connection that was made is no sign of a dead member").isTrue();
        }
    }

    @Test
    void aGetWhoseMemberDiesIsRetriedOnceOnAnotherMemberAndNoMore() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        StubMember n3 = StubMember.start("n3");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, n2, n3)) {
            HttpResponse<String> response = lb.get("/die");

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(n1.dying() + n2.dying() + n3.dying()).as("one try and one retry").isEqualTo(2);
        }
    }

    @Test
    void aGetWhoseConnectionIsRefusedIsRetriedOnAnotherMember() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.deadMembers = Map.of("n9", TestBalancer.deadPort());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"), StubMember.start("n2"))) {
            HttpResponse<String> response = lb.get("/shop/", "Cookie", "JSESSIONID=node0zz.n9");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(routedTo(response)).isIn("n1", "n2");
            assertThat(response.body()).isEqualTo(routedTo(response));
            assertThat(lb.backend("n9").meters().retries.count()).isEqualTo(1);
            assertThat(lb.backend("n9").isUp()).as("marked down by the failed connection").isFalse();
        }
    }

    @Test
    void aPostWhoseConnectionIsRefusedWasNeverSentAndIsRetriedWithItsBody() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.deadMembers = Map.of("n9", TestBalancer.deadPort());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            HttpResponse<String> response = lb.post("/shop/order", "item=EST-4&quantity=2", "Cookie", "JSESSIONID=node0zz.n9");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("n1:item=EST-4&quantity=2");
        }
    }

    /**
     * A member whose network is unreachable (ENETUNREACH: a plain {@link java.net.SocketException}, not a
     * {@link java.net.ConnectException}) was never sent anything either: its POST is retried with its body, and it is
     * marked down, as after a refused connection.
     */
    @Test
    void aPostToAMemberOnAnUnreachableNetworkWasNeverSentAndIsRetriedWithItsBody() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.urlMembers = Map.of("n9", TestBalancer.unreachableNetworkUrl());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            HttpResponse<String> response = lb.post("/shop/order", "item=EST-4&quantity=2", "Cookie", "JSESSIONID=node0zz.n9");

            Backend n9 = lb.backend("n9");
            assertThat(n9.meters().requests.count()).as("attempts sent to n9, its owner").isEqualTo(1);
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("n1:item=EST-4&quantity=2");
            assertThat(n9.meters().retries.count()).isEqualTo(1);
            assertThat(n9.isUp()).as("marked down by the failed connection").isFalse();
        }
    }

    @Test
    void aMemberOnAnUnreachableNetworkIsMarkedDownByItsFailedConnection() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.urlMembers = Map.of("n9", TestBalancer.unreachableNetworkUrl());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            HttpResponse<String> response = lb.get("/shop/", "Cookie", "JSESSIONID=node0zz.n9");

            Backend n9 = lb.backend("n9");
            assertThat(n9.meters().requests.count()).as("attempts sent to n9, its owner").isEqualTo(1);
            assertThat(n9.isUp()).as("marked down by the failed connection").isFalse();
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(routedTo(response)).isEqualTo("n1");
        }
    }

    @Test
    void aPutWithAChunkedBodyIsRetriedWhenTheConnectionIsRefused() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.deadMembers = Map.of("n9", TestBalancer.deadPort());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            HttpRequest.Builder put = HttpRequest.newBuilder(lb.server.uri().resolve("/shop/cart"))
                    .PUT(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofString("qty=3")));
            HttpResponse<String> response = lb.send(put, "Cookie", "JSESSIONID=node0zz.n9");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("n1:qty=3");
        }
    }

    @Test
    void aPutWhoseBodyHadNotArrivedWhenItsMemberDroppedTheConnectionIsRetriedWithItsBody() throws Exception {
        try (ServerSocket dropping = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread member = new Thread(() -> {
                while (true) {
                    try (Socket connection = dropping.accept()) {
                        RawHttp.readHead(connection.getInputStream()); // then drops the connection, the body unread
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            member.setDaemon(true);
            member.start();
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.socketMembers = Map.of("n9", dropping.getLocalPort());
            try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"));
                 Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
                client.setSoTimeout(10_000);
                OutputStream out = client.getOutputStream();
                out.write(("PUT /shop/cart HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0zz.n9\r\n"
                        + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                Thread.sleep(500); // n9 got the head and dropped the connection before any of the body arrived
                out.write("5\r\nqty=3\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();

                String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(answer).startsWith("HTTP/1.1 200").endsWith("n1:qty=3");
            }
        }
    }

    @Test
    void withEveryMemberDownTheAnswerIs503() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN_LOCAL, n1, n2)) {
            n1.healthy(false);
            n2.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp() && !lb.backend("n2").isUp());

            HttpResponse<String> response = lb.get("/shop/");

            assertThat(response.statusCode()).isEqualTo(503);
            assertThat(response.body()).contains("No server is available");
            assertThat(n1.served() + n2.served()).isZero();
        }
    }
}
