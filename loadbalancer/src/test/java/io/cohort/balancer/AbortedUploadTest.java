package io.cohort.balancer;

import static io.cohort.balancer.TestBalancer.routedTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Policy;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A client that gives up on its upload, or on its download, is no fault of the member. HttpClient reads the first chunk of the body before it
 * sends the request head, so a client that ends before any of the body fails the attempt before anything was sent,
 * which looked like a failed connection (the member marked down, the request retried and the next member marked down
 * too); after a few bytes the head went out and the failure counted as the member's error. Neither may count against
 * a member or be retried.
 */
@Timeout(60)
class AbortedUploadTest {

    /**
     * A body of up to {@link BufferedBody#LIMIT} bytes is read whole before a member is asked, so an abort reaches no
     * member at all; a larger one streams, so the member was asked once.
     */
    @ParameterizedTest(name = "after {0} bytes of {1}")
    @CsvSource({"0, 1000, 0", "8, 1000, 0", "0, 100000, 1", "8, 100000, 1"})
    void anUploadTheClientAbortsCountsAgainstNoMemberAndIsNotRetried(int sent, int length, int attempts) throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, n2)) {
            String answer = abortUpload(lb.server.uri(), length, "item=EST-4&quantity=2".substring(0, sent));
            lb.awaitNothingInFlight();

            for (Backend member : lb.server.backends()) {
                assertThat(member.isUp()).as(member.name() + " up").isTrue();
                assertThat(member.meters().errors.count()).as(member.name() + " errors").isZero();
                assertThat(member.meters().retries.count()).as(member.name() + " retries").isZero();
            }
            assertThat(lb.server.backends().stream().mapToDouble(b -> b.meters().requests.count()).sum()).as("attempts").isEqualTo(attempts);
            Set<String> servedBy = new HashSet<>();
            for (int i = 0; i < 2; i++) {
                HttpResponse<String> response = lb.get("/shop/");
                assertThat(response.statusCode()).isEqualTo(200);
                servedBy.add(routedTo(response));
            }
            assertThat(servedBy).as("members that served the next requests").containsExactlyInAnyOrder("n1", "n2");
            assertThat(answer).as("what the client, still reading, got").startsWith("HTTP/1.1 400 ");
        }
    }

    @Test
    void aDownloadTheClientAbortsIsCountedAsTheClientsNotAsTheMembersError() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            try (Socket socket = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
                socket.getOutputStream().write("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                socket.getInputStream().readNBytes(1024); // the answer began
                socket.setSoLinger(true, 0); // closing resets the connection: the balancer's next write fails
            }
            lb.awaitNothingInFlight();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (lb.server.metrics().clientAbortedCount() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            Backend member = lb.backend("n1");
            assertThat(lb.server.metrics().clientAbortedCount()).isEqualTo(1.0);
            assertThat(member.meters().errors.count()).as("the member answered in full").isZero();
            assertThat(member.isUp()).isTrue();
        }
    }

    @Test
    void aDownloadWhoseClientStopsReadingTimesOutAsTheClientsNotAsTheMembersError() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = java.time.Duration.ofSeconds(2);
        try (TestBalancer lb = TestBalancer.start(settings, n1);
             Socket socket = new Socket()) {
            socket.setReceiveBufferSize(16 * 1024);
            socket.connect(new java.net.InetSocketAddress(lb.server.uri().getHost(), lb.server.uri().getPort()));
            socket.getOutputStream().write("GET /big HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            socket.getInputStream().readNBytes(1024); // the answer began; the client reads no more, and keeps the connection
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            while (lb.server.metrics().clientAbortedCount() < 1 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            lb.awaitNothingInFlight();

            Backend member = lb.backend("n1");
            assertThat(lb.server.metrics().clientAbortedCount()).as("timed out while the client did not read").isEqualTo(1.0);
            assertThat(member.meters().errors.count()).as("the member kept sending as fast as it was read").isZero();
            assertThat(member.isUp()).isTrue();
        }
    }

    /**
     * Sends a POST declaring a 1000-byte body, then {@code body} and the end of its output (the FIN a client closed
     * mid-upload sends), and reads whatever answer comes until the balancer closes the connection.
     */
    private static String abortUpload(URI balancer, int length, String body) throws IOException {
        try (Socket socket = new Socket(balancer.getHost(), balancer.getPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /shop/order HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: " + length + "\r\n\r\n" + body).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            socket.shutdownOutput();
            InputStream in = socket.getInputStream();
            try {
                return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            } catch (SocketException reset) {
                return "";
            }
        }
    }
}
