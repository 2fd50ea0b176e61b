package io.cohort.balancer;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

import io.cohort.config.ClientLimitsConfig;
import io.cohort.config.DataSize;
import io.cohort.net.RawHttpUpload;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Answers the balancer gives itself before it has read a request's body (413 over {@code max-request-body}, declared or
 * streamed; 429 over the client's rate; 503 without a live member or over {@code max-queued-per-member}; 400, 403 and
 * 405 before routing), to a client that sends its whole body before it reads, as Java's HttpClient
 * and many scripts do: it must read the answer, not find its connection reset under the rest of its body.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EarlyAnswerTest {

    private static final int KIB = 1024;
    /** Text: a member that is sent part of it (a chunked body) reads it as a string without failing. */
    private final byte[] body = "x".repeat(2 * 1024 * KIB).getBytes(StandardCharsets.US_ASCII);

    @Test
    void aDeclaredBodyOverTheLimitIsAnswered413AndTheClientCanSendItsRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(limit("1MiB"), n1)) {
            RawHttpUpload.Answer answer = sendAllThenRead(lb.server.uri(), body.length, 64 * KIB);

            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.body()).contains(ErrorPage.TOO_LARGE);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(n1.served()).as("no member saw it").isZero();
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_refused_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    @Test
    void aStreamedBodyOverTheLimitIsAnswered413AndTheClientCanSendItsRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(limit("1MiB"), n1)) {
            // chunked: no length to refuse up front; answered once more than 1 MiB has passed
            RawHttpUpload.Answer answer = sendAllThenRead(lb.server.uri(), -1, 1024 * KIB + 64 * KIB);

            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.body()).contains(ErrorPage.TOO_LARGE);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(lb.server.metrics().registry().find("cohort.balancer.errors").counters())
                    .as("the client's failure, no member error").allMatch(c -> c.count() == 0);
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_refused_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    @Test
    void aBodyOverTheClientsRateIsAnswered429AndTheClientCanSendItsRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        ClientLimitsConfig defaults = ClientLimitsConfig.DEFAULT;
        settings.clientLimits = new ClientLimitsConfig(defaults.headerTimeout(), defaults.maxConnections(), OptionalInt.empty(),
                Optional.of(new ClientLimitsConfig.RequestRate(1, 1)));
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            assertThat(lb.get("/shop/").statusCode()).as("the burst").isEqualTo(200);

            // a refused request needs two drips at 1/s: the upload comes well within them
            RawHttpUpload.Answer answer = sendAllThenRead(lb.server.uri(), body.length, 64 * KIB);

            assertThat(answer.status()).isEqualTo(429);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(n1.served()).as("only the burst reached the member").isEqualTo(1);
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_rate_limited_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    @Test
    void withoutALiveMemberABodyIsAnswered503AndTheClientCanSendItsRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1)) {
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());

            RawHttpUpload.Answer answer = sendAllThenRead(lb.server.uri(), body.length, 64 * KIB);

            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.body()).contains(ErrorPage.NO_MEMBER);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(n1.served()).isZero();
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_unavailable_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    /** Refused before routing: a malformed percent-escape (400), an absolute URI for another site (403). */
    @ParameterizedTest(name = "{2} for PUT {0}")
    @CsvSource({"/upload?discount=100%, , 400", "http://example.org/upload, example.org, 403"})
    void aRequestRefusedBeforeRoutingIsAnsweredAndTheClientCanSendItsRest(String target, String host, int status)
            throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
             RawHttpUpload upload = RawHttpUpload.start(lb.server.uri(), target, host == null ? lb.server.uri().getAuthority() : host,
                     body.length)) {
            RawHttpUpload.Answer answer = upload.sendAllThenRead(body, 64 * KIB);

            assertThat(answer.status()).isEqualTo(status);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(n1.served()).isZero();
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_refused_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    /** CONNECT is refused before routing (405); one that carries a body is answered as any other refusal. */
    @Test
    void aConnectWithABodyIsAnswered405AndTheClientCanSendItsRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
             Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write(("CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, 64 * KIB);
            out.flush();
            InputStream in = client.getInputStream();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (in.available() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            Thread.sleep(1000); // as RawHttpUpload.sendAllThenRead: a server that closes once it answered has closed by now

            assertThatNoException().as("sending the rest of the body after the answer came")
                    .isThrownBy(() -> out.write(body, 64 * KIB, body.length - 64 * KIB));
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 405 ").containsIgnoringCase("\r\nConnection: close\r\n")
                    .contains(ErrorPage.NOT_A_PROXY);
            assertThat(n1.served()).isZero();
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_refused_total{balancer=\""
                    + lb.server.config().name() + "\"} 1.0");
        }
    }

    /**
     * A request over {@code max-queued-per-member} (503, the balancer's overload): a small body was read whole before,
     * a larger or chunked one is refused with its rest to come.
     */
    @ParameterizedTest(name = "declared length {0}")
    @ValueSource(ints = {32 * KIB, 2 * 1024 * KIB, -1})
    void aBodyOverTheMembersQueueIsAnswered503AndTheClientCanSendItsRest(int declaredLength) throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxConnections = 1;
        settings.maxQueuedPerMember = 1;
        List<Socket> gets = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            gets.add(send(lb.server.uri(), "/hold"));
            n1.awaitHeld(); // the member's one connection is busy until released
            gets.add(send(lb.server.uri(), "/queued"));
            gets.add(send(lb.server.uri(), "/queued"));
            Socket over = RawHttp.firstAnswered(gets.subList(1, 3)); // the other one waits in the queue, which is now full
            assertThat(RawHttp.readAll(over)).startsWith("HTTP/1.1 503 ");
            Socket queued = gets.get(1) == over ? gets.get(2) : gets.get(1);
            byte[] sent = declaredLength == 32 * KIB ? Arrays.copyOf(body, declaredLength) : body;

            RawHttpUpload.Answer answer;
            try (RawHttpUpload upload = RawHttpUpload.start(lb.server.uri(), "/upload", declaredLength)) {
                answer = upload.sendAllThenRead(sent, Math.min(sent.length, 64 * KIB));
            }
            n1.releaseHeld();

            assertThat(answer.status()).isEqualTo(503);
            assertThat(answer.body()).contains(ErrorPage.OVERLOADED);
            assertThat(answer.headers()).containsEntry("retry-after", "1");
            if (sent.length > BufferedBody.LIMIT) {
                assertThat(answer.head()).contains("\r\nconnection: close");
            } else {
                assertThat(answer.head()).as("a body read whole leaves the connection usable").doesNotContain("connection: close");
            }
            assertThat(RawHttp.readAll(queued)).as("the queued request").startsWith("HTTP/1.1 200 ");
            assertThat(lb.server.metrics().overloadedCount()).as("overloaded: the GET and the upload").isEqualTo(2);
            assertThat(lb.backend("n1").meters().errors.count()).as("errors of the member").isZero();
            assertThat(lb.server.metrics().scrape()).as("not refused before routing").contains("cohort_balancer_refused_total{balancer=\""
                    + lb.server.config().name() + "\"} 0.0");
        } finally {
            n1.releaseHeld();
            for (Socket get : gets) {
                get.close();
            }
        }
    }

    /** Sends {@code GET path} on a connection of its own, which the balancer closes after the answer. */
    private static Socket send(URI server, String path) throws IOException {
        return RawHttp.send(server, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    }

    private static TestBalancer.Settings limit(String maxRequestBody) {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxRequestBody = DataSize.parse(maxRequestBody);
        return settings;
    }

    private RawHttpUpload.Answer sendAllThenRead(URI balancer, long declaredLength, int sentBeforeAnswer) throws Exception {
        try (RawHttpUpload upload = RawHttpUpload.start(balancer, "/upload", declaredLength)) {
            return upload.sendAllThenRead(body, sentBeforeAnswer);
        }
    }
}
