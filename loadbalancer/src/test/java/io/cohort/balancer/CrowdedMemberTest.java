package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member whose accept queue is full cannot take a new connection: the balancer's connect times out. Through the
 * proxy, end to end: when that member began answering another proxied request while the connect waited, it is busy,
 * not down, and stays up; when it answered nothing, it is marked down at once.
 */
@Timeout(60)
class CrowdedMemberTest {

    @Test
    void aConnectTimeoutWhileTheMemberAnswersAnotherRequestKeepsItUp() throws Exception {
        try (CrowdedMember n1 = CrowdedMember.start(); TestBalancer lb = balancerBefore(n1)) {
            Backend member = lb.backend("n1");
            CompletableFuture<HttpResponse<String>> first = CompletableFuture.supplyAsync(() -> get(lb, "/first"));
            n1.awaitRequestRead();
            n1.fillAcceptQueue();
            CompletableFuture<HttpResponse<String>> second = CompletableFuture.supplyAsync(() -> get(lb, "/second"));
            awaitInFlight(member, 2); // the second attempt was given: an answer from now on excuses its timeout
            n1.beginAnswer();

            assertThat(second.get(20, TimeUnit.SECONDS).statusCode()).as("no connection, no other member").isEqualTo(502);
            assertThat(member.isUp()).as("a member that began an answer while the connect waited is busy, not down").isTrue();
            assertThat(member.meters().lateTimeouts.count()).isEqualTo(1.0);
            n1.finishAnswer();
            assertThat(first.get(20, TimeUnit.SECONDS).body()).isEqualTo("first");
        }
    }

    @Test
    void aConnectTimeoutOfAMemberThatAnswersNothingMarksItDown() throws Exception {
        try (CrowdedMember n1 = CrowdedMember.start(); TestBalancer lb = balancerBefore(n1)) {
            Backend member = lb.backend("n1");
            CompletableFuture.runAsync(() -> get(lb, "/first"));
            n1.awaitRequestRead();
            n1.fillAcceptQueue();

            HttpResponse<String> second = lb.get("/second");

            assertThat(second.statusCode()).isEqualTo(502);
            assertThat(member.isUp()).as("a member that answers nothing within the connect timeout is down").isFalse();
            assertThat(member.meters().lateTimeouts.count()).isZero();
        }
    }

    /** Waits until the balancer has begun {@code count} requests to {@code member} (the connect follows at once). */
    private static void awaitInFlight(Backend member, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (member.inFlight() < count) {
            assertThat(System.nanoTime()).as("requests in flight to " + member.name()).isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    private static TestBalancer balancerBefore(CrowdedMember member) throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.socketMembers = Map.of("n1", member.port());
        return TestBalancer.start(settings);
    }

    private static HttpResponse<String> get(TestBalancer lb, String path) {
        try {
            return lb.get(path);
        } catch (IOException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A member on a plain socket with an accept queue of one: it accepts one connection, reads one request, begins its
     * answer (status and headers) when told to ({@link #beginAnswer}) and sends the body at {@link #finishAnswer}; it
     * accepts no other connection. {@link #fillAcceptQueue} fills the queue with idle connections, so the kernel drops
     * the next connection's SYN and the connect times out.
     */
    private static final class CrowdedMember implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final CountDownLatch requestRead = new CountDownLatch(1);
        private final CountDownLatch answerAllowed = new CountDownLatch(1);
        private final CountDownLatch answerReleased = new CountDownLatch(1);
        private final List<Socket> fillers = new ArrayList<>();
        private final Thread thread = new Thread(this::serveOne, "crowded-member");

        private CrowdedMember() throws IOException {
        }

        static CrowdedMember start() throws IOException {
            CrowdedMember member = new CrowdedMember();
            member.thread.setDaemon(true);
            member.thread.start();
            return member;
        }

        int port() {
            return server.getLocalPort();
        }

        private void serveOne() {
            try (Socket connection = server.accept()) {
                String path = readRequestPath(connection.getInputStream());
                requestRead.countDown();
                answerAllowed.await();
                OutputStream out = connection.getOutputStream();
                byte[] body = path.substring(1).getBytes(StandardCharsets.US_ASCII);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                answerReleased.await();
                out.write(body);
                out.flush();
                Thread.sleep(200); // let the balancer read the body before the connection closes
            } catch (IOException | InterruptedException e) {
                // closed by the test
            }
        }

        private static String readRequestPath(InputStream in) throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed in the request head");
                }
                head.write(b);
            }
            return head.toString(StandardCharsets.US_ASCII).split(" ", 3)[1];
        }

        void awaitRequestRead() throws InterruptedException {
            assertThat(requestRead.await(20, TimeUnit.SECONDS)).as("the first request reached the member").isTrue();
        }

        void beginAnswer() {
            answerAllowed.countDown();
        }

        /** Connects until a connect times out: the accept queue is full and the kernel drops new SYNs. */
        void fillAcceptQueue() throws IOException {
            for (int i = 0; i < 8; i++) {
                Socket filler = new Socket();
                try {
                    filler.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 300);
                    fillers.add(filler);
                } catch (SocketTimeoutException full) {
                    filler.close();
                    return;
                }
            }
            throw new AssertionError("the accept queue never filled: the kernel took 8 connections");
        }

        void finishAnswer() {
            answerAllowed.countDown();
            answerReleased.countDown();
        }

        @Override
        public void close() throws IOException {
            finishAnswer();
            for (Socket filler : fillers) {
                filler.close();
            }
            server.close();
            thread.interrupt();
        }
    }
}
