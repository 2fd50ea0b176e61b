package io.cohort.balancer;


import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.net.RawHttpUpload;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Answers the balancer gives itself once it has begun forwarding a request's body (502 when the member failed during
 * the upload, 408 when the client's body stalled), to a client that sends its whole body before it reads: it must read
 * the answer, not find its connection reset under the rest of its body. (504 takes the 502's way; it needs a member
 * that stops reading once socket buffers of a few MiB are full, which a test cannot time.)
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
