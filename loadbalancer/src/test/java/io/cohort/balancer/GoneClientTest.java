package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A client that goes away while its request waits for the member's answer (a slow page, a long poll) takes the member's
 * request with it, as nginx does: the balancer closes its connection to the member, which frees one of the member's
 * {@code max-connections} and tells the member to stop. That is the client's doing: the member is not counted as
 * failed nor marked down, and nothing is retried elsewhere. Each case's member answers nothing and only waits (at most
 * {@link Member#PATIENCE_SECONDS}) for the balancer to close its connection.
 */
@Timeout(60)
class GoneClientTest {

    /** How long the balancer may take to close the member's connection once the client has gone. */
    private static final Duration NOTICED_WITHIN = Duration.ofSeconds(5);

    @ParameterizedTest(name = "{0} {1} bytes, the client {2}")
    @CsvSource({"GET, 0, closes", "GET, 0, resets", "POST, 1000, closes", "POST, 100000, closes", "PUT, 100000, resets"})
    void aClientThatLeavesBeforeTheAnswerBeganAbortsTheMembersRequest(String method, int length, String leaving) throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (Member n9 = Member.start(); TestBalancer lb = balancerBefore(n9, n1);
             Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            OutputStream out = client.getOutputStream();
            out.write((method + " /report HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0a.n9\r\n"
                    + (length > 0 ? "Content-Type: text/plain\r\nContent-Length: " + length + "\r\n" : "") + "\r\n"
                    + "x".repeat(length)).getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            n9.awaitRequest();
            if (leaving.equals("resets")) {
                client.setSoLinger(true, 0);
            }
            client.close();

            assertThat(n9.connectionEnd()).as("how the member's connection ended after the client left")
                    .succeedsWithin(NOTICED_WITHIN).isEqualTo(Member.CLOSED);
            lb.awaitNothingInFlight();
            awaitClientAborts(lb, 1);
            Backend member = lb.backend("n9");
            assertThat(member.isUp()).as("n9 up").isTrue();
            assertThat(member.meters().errors.count()).as("n9's errors").isZero();
            assertThat(member.meters().retries.count()).as("retries after n9").isZero();
            assertThat(lb.backend("n1").meters().requests.count()).as("attempts at n1").isZero();
            assertThat(n1.served()).as("requests n1 served").isZero();
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isEqualTo(1.0);
        }
    }

    /**
     * With the member's only connection busy, a request waits in the balancer's queue for it; its client leaving takes
     * it out of the queue, so it never reaches the member.
     */
    @Test
    void aClientThatLeavesWhileItsRequestWaitsForAConnectionTakesItOutOfTheQueue() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (Member n9 = Member.start(); TestBalancer lb = balancerBefore(n9, 1, n1);
             Socket first = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort());
             Socket queued = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            Backend member = lb.backend("n9");
            send(first, "GET /report HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0a.n9\r\n\r\n");
            n9.awaitRequest(); // the member's one connection is busy
            send(queued, "GET /report HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0b.n9\r\n\r\n");
            awaitInFlight(member, 2);
            queued.close();
            awaitClientAborts(lb, 1);

            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isEqualTo(1.0);
            assertThat(member.inFlight()).as("requests in flight to n9, the first still waiting").isEqualTo(1);
            assertThat(n9.connectionEnd()).as("the first request's connection").isNotDone();
            n9.answer();
            first.setSoTimeout(20_000);
            assertThat(new String(first.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1)).isEqualTo("HTTP/1.1 200");
            lb.awaitNothingInFlight();
            assertThat(member.isUp()).as("n9 up").isTrue();
            assertThat(member.meters().errors.count()).as("n9's errors").isZero();
            assertThat(member.meters().retries.count()).as("retries after n9").isZero();
            assertThat(n1.served()).as("requests n1 served").isZero();
        }
    }

    /**
     * A client that sends more while it waits (a pipelined request) is still there: it gets its answer, and the member
     * its request in full. The balancer may have read the start of the next request (it cannot put it back); the
     * connection then closes after the answer and the client sends that request again, as RFC 9112 (9.3.2) has it do.
     */
    @Test
    void aClientThatSendsMoreWhileItWaitsStillGetsItsAnswer() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (Member n9 = Member.start(); TestBalancer lb = balancerBefore(n9, n1);
             Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            client.setSoTimeout(20_000);
            OutputStream out = client.getOutputStream();
            out.write("GET /report HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0a.n9\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            n9.awaitRequest();
            out.write("GET /next HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0b.n1\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Thread.sleep(300); // no event to wait for: gives the balancer time to see the bytes while the member thinks
            n9.answer();
            String answers = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answers).startsWith("HTTP/1.1 200 ");
            assertThat(answers.indexOf("\r\n\r\nok")).as("the end of the first answer's head, its body after it").isPositive();
            String rest = answers.substring(answers.indexOf("\r\n\r\nok") + 6);
            assertThat(rest).as("after the first answer: nothing (the connection closed) or the second answer, from n1")
                    .satisfiesAnyOf(r -> assertThat(r).isEmpty(), r -> assertThat(r).startsWith("HTTP/1.1 200 ").endsWith("n1"));
            assertThat(n9.connectionEnd()).as("the member answered").succeedsWithin(NOTICED_WITHIN).isEqualTo(Member.ANSWERED);
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isZero();
            assertThat(lb.backend("n9").meters().errors.count()).as("n9's errors").isZero();
        }
    }

    private static TestBalancer balancerBefore(Member n9, StubMember n1) throws Exception {
        return balancerBefore(n9, new TestBalancer.Settings().maxConnections, n1);
    }

    private static TestBalancer balancerBefore(Member n9, int maxConnections, StubMember n1) throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxConnections = maxConnections;
        settings.requestTimeout = Duration.ofSeconds(30); // longer than the member waits: only the client's leaving ends it
        settings.socketMembers = Map.of("n9", n9.port());
        return TestBalancer.start(settings, n1);
    }

    private static void send(Socket client, String request) throws IOException {
        client.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
        client.getOutputStream().flush();
    }

    private static void awaitInFlight(Backend member, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (member.inFlight() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(member.inFlight()).as("requests in flight to " + member.name()).isEqualTo(count);
    }

    private static void awaitClientAborts(TestBalancer lb, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (lb.server.metrics().clientAbortedCount() < count && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    /**
     * A member on a plain socket that takes one request (its head and {@code Content-Length} bytes of body) and answers
     * nothing: it waits, at most {@link #PATIENCE_SECONDS}, for the balancer to close the connection, or for the test
     * to let it answer ({@link #answer}). {@link #connectionEnd} tells which came first.
     */
    private static final class Member implements AutoCloseable {
        static final String CLOSED = "closed by the balancer";
        static final String ANSWERED = "answered";
        static final String WAITED = "still open after " + Member.PATIENCE_SECONDS + " s";
        static final int PATIENCE_SECONDS = 20;

        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final CountDownLatch requestRead = new CountDownLatch(1);
        private final CountDownLatch answerAllowed = new CountDownLatch(1);
        private final CompletableFuture<String> end = new CompletableFuture<>();

        private Member() throws IOException {
        }

        static Member start() throws IOException {
            Member member = new Member();
            Thread thread = new Thread(member::serveOne, "waiting-member");
            thread.setDaemon(true);
            thread.start();
            return member;
        }

        int port() {
            return server.getLocalPort();
        }

        void awaitRequest() throws InterruptedException {
            assertThat(requestRead.await(20, TimeUnit.SECONDS)).as("the member got the whole request").isTrue();
        }

        void answer() {
            answerAllowed.countDown();
        }

        CompletableFuture<String> connectionEnd() {
            return end;
        }

        private void serveOne() {
            try (Socket connection = server.accept()) { // health checks are an hour away: this is the proxied request
                connection.setSoTimeout(PATIENCE_SECONDS * 1000);
                InputStream in = connection.getInputStream();
                long length = contentLength(readHead(in));
                if (in.readNBytes((int) length).length < length) {
                    end.complete("the request ended early");
                    return;
                }
                requestRead.countDown();
                CompletableFuture.runAsync(() -> awaitQuietly(answerAllowed)).thenRun(() -> answerOn(connection));
                try {
                    int read = in.read();
                    end.complete(read < 0 ? CLOSED : "read more: " + read);
                } catch (SocketTimeoutException stillOpen) {
                    end.complete(WAITED);
                } catch (IOException reset) {
                    end.complete(CLOSED);
                }
            } catch (IOException | RuntimeException e) {
                end.complete("failed: " + e);
            }
        }

        private void answerOn(Socket connection) {
            try {
                connection.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                connection.getOutputStream().flush();
                end.complete(ANSWERED);
            } catch (IOException e) {
                end.complete("could not answer: " + e);
            }
        }

        private static void awaitQuietly(CountDownLatch latch) {
            try {
                latch.await(PATIENCE_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private static String readHead(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the connection ended within the request head");
                }
                head.append((char) b);
            }
            return head.toString();
        }

        private static long contentLength(String head) {
            for (String line : head.split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    return Long.parseLong(line.substring("content-length:".length()).strip());
                }
            }
            return 0;
        }

        @Override
        public void close() throws IOException {
            answerAllowed.countDown();
            server.close();
        }
    }
}
