package io.cohort.balancer;


import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.ClientLimitsConfig;
import io.cohort.config.DataSize;
import io.cohort.net.RawHttpUpload;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Answers the balancer gives itself before it has read a request's body (413 over {@code max-request-body}, declared or
 * streamed; 429 over the client's rate; 503 without a live member; 400 and 403 before routing), to a client that sends its whole body before it reads, as Java's HttpClient
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
