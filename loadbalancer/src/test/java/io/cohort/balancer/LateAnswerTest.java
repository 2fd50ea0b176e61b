package io.cohort.balancer;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.DataSize;
import io.cohort.net.RawHttpUpload;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Answers the balancer gives itself once it has begun forwarding a request's body (502 when the member failed during
 * the upload, 504 when it timed out during it, 408 when the client's body stalled), to a client that sends its whole
 * body before it reads: it must read the answer, not find its connection reset under the rest of its body.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LateAnswerTest {

    private static final int KIB = 1024;
    /** Text: a member that is sent part of it reads it as a string without failing. */
    private final byte[] body = "x".repeat(2 * 1024 * KIB).getBytes(StandardCharsets.US_ASCII);

    @Test
    void aMemberThatFailsDuringAnUploadIsAnswered502AndTheClientCanSendItsRest() throws Exception {
        try (ServerSocket member = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread failing = new Thread(() -> failAfterPartOfTheBody(member), "failing-member");
            failing.setDaemon(true);
            failing.start();
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.socketMembers = Map.of("n9", member.getLocalPort());
            try (TestBalancer lb = TestBalancer.start(settings);
                 RawHttpUpload upload = RawHttpUpload.start(lb.server.uri(), "/upload", body.length)) {
                RawHttpUpload.Answer answer = upload.sendAllThenRead(body, 64 * KIB);

                assertThat(answer.status()).isEqualTo(502);
                assertThat(answer.head()).contains("\r\nconnection: close");
                assertThat(lb.backend("n9").meters().errors.count()).as("the member's failure").isEqualTo(1.0);
            }
        }
    }

    @Test
    void aStreamedBodyThatStallsIsAnswered408AndTheClientCanSendItsRest() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.idleTimeout = Duration.ofSeconds(2);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1);
             RawHttpUpload upload = RawHttpUpload.start(lb.server.uri(), "/upload", body.length)) {
            RawHttpUpload.Answer answer = upload.sendAllThenRead(body, 64 * KIB);

            assertThat(answer.status()).isEqualTo(408);
            assertThat(answer.head()).contains("\r\nconnection: close");
            assertThat(lb.backend("n1").meters().errors.count()).as("the client's failure, no member error").isZero();
            assertRefusedOnce(lb);
        }
    }

    /**
     * A member that stops reading during an upload: once the connection to it holds all it can, the balancer waits for
     * the member, not for the client, so {@code request-timeout} runs out (504) with the rest of the body still to come.
     * The upload is as long as that connection holds (measured on a loopback connection like it) plus 1 MiB, so that
     * the rest is within what the balancer reads after its answer.
     */
    @Test
    void aMemberThatTimesOutDuringAnUploadIsAnswered504AndTheClientCanSendItsRest() throws Exception {
        long held = bytesAConnectionHoldsUnread();
        byte[] upload = "x".repeat(Math.toIntExact(held + 1024 * KIB)).getBytes(StandardCharsets.US_ASCII);
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket member = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread stalling = new Thread(() -> stopReadingAfterTheHead(member, done), "stalling-member");
            stalling.setDaemon(true);
            stalling.start();
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.socketMembers = Map.of("n9", member.getLocalPort());
            settings.requestTimeout = Duration.ofSeconds(1);
            settings.maxRequestBody = DataSize.ofBytes(upload.length); // where the kernel's buffers are larger than here
            try (TestBalancer lb = TestBalancer.start(settings);
                 RawHttpUpload client = RawHttpUpload.start(lb.server.uri(), "/upload", upload.length)) {
                // more than the connection to the member holds: the balancer is left waiting for the member
                RawHttpUpload.Answer answer = client.sendAllThenRead(upload, Math.toIntExact(held + 256 * KIB));

                assertThat(answer.status()).isEqualTo(504);
                assertThat(answer.body()).contains(ErrorPage.GATEWAY_TIMEOUT);
                assertThat(answer.head()).contains("\r\nconnection: close");
                assertThat(lb.backend("n9").meters().errors.count()).as("the member's failure").isEqualTo(1.0);
            }
        } finally {
            done.countDown();
        }
    }

    /**
     * A known limit: a chunked body malformed mid-way (a chunk size that is no hexadecimal number) is the client's 400,
     * said with {@code Connection: close}, but with the body's framing lost there is no rest to read and drop, and the
     * connection closes at once. A client still sending finds it reset; what arrived before the reset, the answer, can
     * still be read.
     */
    @Test
    void aChunkedBodyMalformedMidWayIsAnswered400ButTheConnectionClosesUnderTheRest() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
             Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            client.setSoTimeout(10_000);
            OutputStream out = client.getOutputStream();
            out.write("PUT /upload HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            sendChunks(out, 4); // 256 KiB: on its way to the member
            out.write("zz\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            awaitAnswer(client.getInputStream());
            Thread.sleep(1000); // as RawHttpUpload.sendAllThenRead: the balancer has closed by now

            assertThatThrownBy(() -> sendChunks(out, 16)).as("sending 1 MiB more after the answer came")
                    .isInstanceOf(SocketException.class).hasMessageContaining("Broken pipe");
            String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 400 ").containsIgnoringCase("\r\nConnection: close\r\n")
                    .contains(ErrorPage.BAD_BODY);
            assertThat(lb.backend("n1").meters().errors.count()).as("the client's failure, no member error").isZero();
            assertRefusedOnce(lb);
        }
    }

    /** The client's failure is counted where the balancer's other answers for a client's fault are. */
    private static void assertRefusedOnce(TestBalancer lb) {
        assertThat(lb.server.metrics().scrape()).as("the client's failure counted as refused")
                .contains("cohort_balancer_refused_total{balancer=\"" + lb.server.config().name() + "\"} 1.0");
    }

    /** Waits until the first bytes of an answer have arrived, without reading them (at most 10 s). */
    private static void awaitAnswer(InputStream in) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (in.available() == 0) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no answer within 10 s");
            }
            Thread.sleep(10);
        }
    }

    private void sendChunks(OutputStream out, int chunks) throws IOException {
        for (int i = 0; i < chunks; i++) {
            out.write("10000\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(body, 0, 64 * KIB);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** A member that reads the head of the first request, then nothing more until {@code done}. */
    private static void stopReadingAfterTheHead(ServerSocket member, CountDownLatch done) {
        try (Socket connection = member.accept()) {
            RawHttp.readHead(connection.getInputStream());
            done.await(60, TimeUnit.SECONDS);
        } catch (IOException | InterruptedException ended) {
            // the test is over
        }
    }

    /**
     * How many bytes a fresh loopback connection takes from its writer while its reader reads nothing (the writer's
     * send buffer and the reader's receive buffer, both as the kernel sizes them by default): what the balancer's
     * connection to a member that stopped reading takes of an upload before the balancer has to wait for the member.
     */
    private static long bytesAConnectionHoldsUnread() throws IOException, InterruptedException {
        try (ServerSocketChannel listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel writer = SocketChannel.open(listener.getLocalAddress());
             SocketChannel reader = listener.accept()) {
            writer.configureBlocking(false);
            ByteBuffer piece = ByteBuffer.allocate(64 * KIB);
            long written = 0;
            for (int refused = 0; refused < 3; ) { // the kernel may take more a moment later, as segments move on
                piece.clear();
                int n = writer.write(piece);
                written += n;
                if (n == 0) {
                    refused++;
                    Thread.sleep(20);
                } else {
                    refused = 0;
                }
            }
            return written;
        }
    }

    /** A member that reads a request's head and part of its body, then closes the connection. */
    private static void failAfterPartOfTheBody(ServerSocket member) {
        while (true) {
            try (Socket connection = member.accept()) {
                InputStream in = connection.getInputStream();
                RawHttp.readHead(in);
                in.readNBytes(16 * KIB);
            } catch (IOException closed) {
                return;
            }
        }
    }
}
