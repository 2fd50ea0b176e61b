package io.cohort.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LingeringClose}'s bounds, on a server that answers every request 413 at once, without reading its body. The
 * connector's idle timeout (30 s) is far above every wait here, so only the bounds can end a request in time.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LingeringCloseTest {

    private static final int KIB = 1024;
    private final CountDownLatch completed = new CountDownLatch(1);
    private Server server;
    private URI uri;

    @AfterEach
    void stopServer() throws Exception {
        server.stop();
    }

    @Test
    void theRestOfTheBodyIsReadBeforeTheRequestCompletes() throws Exception {
        start(1024 * KIB, Duration.ofSeconds(20));
        byte[] body = new byte[512 * KIB];
        try (RawHttpUpload upload = RawHttpUpload.start(uri, "/", body.length)) {
            upload.send(body, 0, KIB);
            upload.awaitAnswer(Duration.ofSeconds(5));
            assertThat(completed.await(500, TimeUnit.MILLISECONDS)).as("completed with the body half sent").isFalse();

            upload.send(body, KIB, body.length);
            assertThat(completed.await(5, TimeUnit.SECONDS)).as("completed once the body is in").isTrue();
            assertThat(upload.readAnswer().status()).isEqualTo(413);
        }
    }

    @Test
    void aClientThatStopsSendingIsLetGoAfterTheTimeBound() throws Exception {
        start(1024 * KIB, Duration.ofMillis(500));
        long began = System.nanoTime();
        try (RawHttpUpload upload = RawHttpUpload.start(uri, "/", 512 * KIB)) {
            upload.send(new byte[KIB], 0, KIB);
            assertThat(completed.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - began)).isGreaterThanOrEqualTo(Duration.ofMillis(500));
            assertThat(upload.readAnswer().status()).isEqualTo(413);
        }
    }

    @Test
    void aBodyLargerThanTheByteBoundIsCutOff() throws Exception {
        start(64 * KIB, Duration.ofSeconds(20));
        try (RawHttpUpload upload = RawHttpUpload.start(uri, "/", 4096 * KIB)) {
            try {
                upload.send(new byte[256 * KIB], 0, 256 * KIB); // and then nothing
            } catch (IOException e) {
                // the server may already have stopped reading and closed the connection: that is the point
            }
            assertThat(completed.await(5, TimeUnit.SECONDS)).as("completed though 3.75 MiB never came").isTrue();
        }
    }

    @Test
    void aClientWaitingFor100ContinueIsAnsweredWithoutBeingInvitedToSend() throws Exception {
        start(1024 * KIB, Duration.ofSeconds(20));
        try (RawHttpUpload upload = RawHttpUpload.start(uri, "/", 512 * KIB, "Expect: 100-continue")) {
            RawHttpUpload.Answer answer = upload.readAnswer();
            assertThat(answer.status()).as("the final answer, no 100 Continue before it").isEqualTo(413);
            assertThat(completed.await(5, TimeUnit.SECONDS)).as("completed without a body").isTrue();
        }
    }

    private void start(long maxBytes, Duration maxTime) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setIdleTimeout(30_000);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                response.setStatus(HttpStatus.PAYLOAD_TOO_LARGE_413);
                response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
                Content.Sink.write(response, true, "{\"error\":\"too large\"}",
                        LingeringClose.afterAnswer(request, recording(callback), maxBytes, maxTime));
                return true;
            }
        });
        server.start();
        uri = URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    /** {@code callback}, counting {@link #completed} down when the request completes. */
    private Callback recording(Callback callback) {
        return new Callback() {
            @Override
            public void succeeded() {
                completed.countDown();
                callback.succeeded();
            }

            @Override
            public void failed(Throwable x) {
                completed.countDown();
                callback.failed(x);
            }
        };
    }
}
