package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code request-timeout} bounds how long a member may take to begin its answer, not how long the answer streams: a
 * download or a stream of server-sent events that keeps coming passes whole, however long it takes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamingAnswerTest {

    @Test
    void anAnswerThatKeepsStreamingPastTheRequestTimeoutReachesTheClientWhole() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = Duration.ofSeconds(1);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            long start = System.nanoTime();
            HttpResponse<String> answer = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    lb.server.uri().resolve("/events?count=8&every=300")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(answer.body()).as("the events received").contains("data: 0\n\n").contains("data: 7\n\n");
            assertThat(took).as("how long the answer streamed").isGreaterThan(settings.requestTimeout);
            lb.awaitNothingInFlight();
            assertThat(lb.backend("n1").meters().errors.count()).as("n1 errors").isZero();
        }
    }
}
