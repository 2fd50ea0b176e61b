package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A small body read before a member is asked ({@link BufferedBody}) holds memory in step with the bytes that arrived,
 * not with the length the client declared: heads that declare 64 KiB and send little must not pin 64 KiB each.
 */
@Timeout(60)
class BufferedBodyMemoryTest {

    private static final int CONNECTIONS = 200;
    private static final int SENT = 1000;

    @Test
    void bodiesDeclaredLargeButSentSmallHoldAboutWhatArrivedNotWhatWasDeclared() throws Exception {
        StubMember a = StubMember.start("a");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), a)) {
            BodyBufferMeters buffers = lb.server.metrics().bodyBuffers();
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < CONNECTIONS; i++) {
                    Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort());
                    clients.add(client);
                    OutputStream out = client.getOutputStream();
                    out.write(head(BufferedBody.LIMIT));
                    out.write(new byte[SENT]);
                    out.flush();
                }
                await(() -> buffers.reading() == CONNECTIONS, "every body being read");

                assertThat(buffers.bytes()).as("bytes held for %d bodies that declared %d bytes and sent %d", CONNECTIONS,
                        BufferedBody.LIMIT, SENT).isLessThanOrEqualTo((long) CONNECTIONS * 2 * Math.max(SENT, BufferedBody.FIRST_CAPACITY));
            } finally {
                for (Socket client : clients) {
                    client.close();
                }
            }
            await(() -> buffers.reading() == 0, "the abandoned bodies' reading ended");
            assertThat(buffers.bytes()).as("bytes held once no body is read").isZero();
        }
    }

    @Test
    void aBodySentInPiecesArrivesWholeAtTheMember() throws Exception {
        StubMember a = StubMember.start("a");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), a);
             Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            client.setSoTimeout(20_000);
            byte[] body = new byte[BufferedBody.LIMIT];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) ('a' + i % 26);
            }
            OutputStream out = client.getOutputStream();
            out.write(head(body.length));
            for (int from = 0; from < body.length; from += 7_000) { // pieces that do not fall on the buffer's sizes
                out.write(Arrays.copyOfRange(body, from, Math.min(body.length, from + 7_000)));
                out.flush();
            }
            String answer = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 200").endsWith("a:" + new String(body, StandardCharsets.ISO_8859_1));
            assertThat(lb.server.metrics().bodyBuffers().bytes()).isZero();
        }
    }

    private static byte[] head(int contentLength) {
        return ("POST /form HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Length: " + contentLength + "\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 20 s: " + what);
            }
            Thread.sleep(10);
        }
    }
}
