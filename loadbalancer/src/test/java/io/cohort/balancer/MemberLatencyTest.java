package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Timer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A member's latency histogram holds the time of its own attempts, not of attempts other members failed before. */
@Timeout(60)
class MemberLatencyTest {

    /** How long the first member holds the request before it drops the connection unanswered. */
    private static final long HELD_MILLIS = 1_000;

    @Test
    void aRetriedRequestCountsAtTheMemberThatAnsweredOnlyFromItsOwnAttempt() throws Exception {
        try (ServerSocket slowToFail = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Long> droppedAfter = CompletableFuture.supplyAsync(() -> {
                try (Socket connection = slowToFail.accept()) { // the proxied request: health checks are an hour away
                    RawHttp.readHead(connection.getInputStream());
                    Thread.sleep(HELD_MILLIS);
                    return System.nanoTime(); // before the close: the retry begins after it
                } catch (IOException | InterruptedException e) {
                    throw new CompletionException(e);
                }
            });
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.socketMembers = Map.of("n9", slowToFail.getLocalPort());
            try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
                HttpResponse<String> response = lb.get("/page", "Cookie", "JSESSIONID=node0l.n9");
                assertThat(response.statusCode()).isEqualTo(200);
                assertThat(TestBalancer.routedTo(response)).isEqualTo("n1");
                Timer latency = lb.backend("n1").meters().latency;
                awaitRecorded(latency);
                long recordedBy = System.nanoTime();
                long dropped = droppedAfter.get(20, TimeUnit.SECONDS);

                assertThat(latency.totalTime(TimeUnit.NANOSECONDS))
                        .as("n1's latency (ns); its attempt began after n9 dropped the connection, n9 having held it %d ms",
                                HELD_MILLIS)
                        .isLessThanOrEqualTo((double) (recordedBy - dropped));
            }
        }
    }

    private static void awaitRecorded(Timer latency) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (latency.count() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no latency recorded within 20 s");
            }
            Thread.sleep(10);
        }
        assertThat(latency.count()).isEqualTo(1);
    }
}
