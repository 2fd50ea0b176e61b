package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Clients that send their request bodies slowly cost the members nothing. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlowClientTest {

    @Test
    void slowSmallUploadsDoNotHoldTheMembersConnections() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxConnections = 2;
        StubMember n1 = StubMember.start("n1");
        List<Socket> uploads = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            // more stalled form posts than the member has connections: each sent its head and one byte of its body
            for (int i = 0; i < 4; i++) {
                uploads.add(startUpload(lb.server.uri(), 100));
            }
            Thread.sleep(500);

            HttpResponse<String> other = HttpClient.newHttpClient().send(HttpRequest.newBuilder(lb.server.uri().resolve("/shop/"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(other.statusCode()).isEqualTo(200);
            assertThat(n1.served()).as("the stalled uploads did not reach the member").isEqualTo(1);
        } finally {
            for (Socket upload : uploads) {
                upload.close();
            }
        }
    }

    @Test
    void aSmallBodyThatDoesNotArriveWithinTheRequestTimeoutGets408AndNeverReachesAMember() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = Duration.ofSeconds(1);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1); Socket upload = startUpload(lb.server.uri(), 100)) {
            upload.setSoTimeout(10_000);
            String answer = new String(upload.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 408 ");
            assertThat(n1.served()).isZero();
        }
    }

    @Test
    void aSmallBodyThatArrivesSlowlyButInTimeIsForwardedWhole() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
                Socket upload = startUpload(lb.server.uri(), 3)) {
            OutputStream out = upload.getOutputStream();
            Thread.sleep(300);
            out.write('b');
            out.flush();
            Thread.sleep(300);
            out.write('c');
            out.flush();
            upload.setSoTimeout(10_000);
            String answer = new String(upload.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("n1:abc");
            assertThat(n1.served()).isEqualTo(1);
        }
    }

    @Test
    void aSmallBodySentInManyPiecesReachesTheMemberWhole() throws Exception {
        StubMember n1 = StubMember.start("n1");
        String body = "x".repeat(4_000) + "end";
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
                Socket upload = startUpload(lb.server.uri(), body.length())) {
            OutputStream out = upload.getOutputStream();
            byte[] rest = body.substring(1).getBytes(StandardCharsets.ISO_8859_1);
            for (int at = 0; at < rest.length; at += 300) {
                out.write(rest, at, Math.min(300, rest.length - at));
                out.flush();
                Thread.sleep(2);
            }
            upload.setSoTimeout(10_000);
            String answer = new String(upload.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("n1:" + body);
        }
    }

    /**
     * A client that asks before sending its body ({@code Expect: 100-continue}, as curl does above 1 KiB) gets the
     * go-ahead and then its answer, whether the balancer buffers the body or streams it to the member.
     */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {2_000, 100_000})
    void aClientThatExpects100ContinueGetsTheGoAheadAndThenItsAnswer(int length) throws Exception {
        StubMember n1 = StubMember.start("n1");
        String body = "y".repeat(length - 3) + "end";
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1);
                Socket client = new Socket(lb.server.uri().getHost(), lb.server.uri().getPort())) {
            client.setSoTimeout(5_000); // a balancer that waits on the member for a go-ahead it never sends: a timeout
            OutputStream out = client.getOutputStream();
            out.write(("POST /shop/cart HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nExpect: 100-continue\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + length + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            java.io.InputStream in = client.getInputStream();
            byte[] interim = new byte["HTTP/1.1 100 Continue\r\n\r\n".length()];
            assertThat(in.readNBytes(interim, 0, interim.length)).isEqualTo(interim.length);
            assertThat(new String(interim, StandardCharsets.ISO_8859_1)).startsWith("HTTP/1.1 100 ");

            out.write(body.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);

            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("n1:" + body);
        }
    }

    /**
     * A streamed upload that keeps arriving takes the client's time, not the member's: sent a few bytes every 200 ms for
     * more than twice the request timeout, it reaches the member whole and the member, which answers at once, is
     * charged nothing. The request timeout is what a member may take once it has the whole request.
     */
    @Test
    void aStreamedUploadThatKeepsArrivingMayTakeLongerThanTheRequestTimeout() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = Duration.ofSeconds(1);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1); Socket upload = startChunkedUpload(lb.server.uri(), "/shop/cart")) {
            long start = System.nanoTime();
            String body = dripChunks(upload, 13);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            String answer = readAnswer(upload);

            lb.awaitNothingInFlight();
            assertThat(lb.backend("n1").meters().errors.count()).as("n1 errors").isZero();
            assertThat(lb.backend("n1").isUp()).isTrue();
            assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("n1:" + body);
            assertThat(took).as("the upload's duration").isGreaterThan(settings.requestTimeout.multipliedBy(2));
        }
    }

    /** The request timeout starts over once the member has the whole body: a member that then answers nothing gets 504. */
    @Test
    void aMemberThatDoesNotAnswerASlowUploadTimesOutOnceItHasTheWholeBody() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = Duration.ofSeconds(1);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1); Socket upload = startChunkedUpload(lb.server.uri(), "/hold")) {
            String body = dripChunks(upload, 13);

            String answer = readAnswer(upload);

            assertThat(body).as("the body sent").doesNotContain("closed");
            assertThat(answer).startsWith("HTTP/1.1 504 ");
            assertThat(lb.backend("n1").meters().errors.count()).as("n1 errors").isEqualTo(1.0);
            n1.releaseHeld();
        }
    }

    /**
     * A streamed upload that stops is the client's failure, whatever the request timeout: 408 once the client's
     * connection has been idle for {@code idle-timeout}, and nothing counted against the member that waited for it.
     */
    @Test
    void aStreamedUploadThatStopsGets408AndCountsAgainstNoMember() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.requestTimeout = Duration.ofSeconds(1);
        settings.idleTimeout = Duration.ofSeconds(2);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1); Socket upload = startChunkedUpload(lb.server.uri(), "/shop/cart")) {
            upload.getOutputStream().write("5\r\nitem=\r\n".getBytes(StandardCharsets.ISO_8859_1));
            upload.getOutputStream().flush(); // and nothing more

            String answer = readAnswer(upload);

            assertThat(answer).startsWith("HTTP/1.1 408 ");
            lb.awaitNothingInFlight();
            assertThat(lb.backend("n1").meters().errors.count()).as("n1 errors").isZero();
            assertThat(lb.backend("n1").isUp()).isTrue();
        }
    }

    /** Opens a chunked POST to {@code path} and sends its head. */
    private static Socket startChunkedUpload(URI balancer, String path) throws IOException {
        Socket socket = new Socket(balancer.getHost(), balancer.getPort());
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: text/plain\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }

    /**
     * Sends {@code pieces} chunks of a few bytes, one every 200 ms, then the last chunk; returns the body sent. Stops
     * early, without failing, when the balancer has closed the connection (it answered before the body ended).
     */
    private static String dripChunks(Socket upload, int pieces) throws InterruptedException {
        StringBuilder body = new StringBuilder();
        try {
            OutputStream out = upload.getOutputStream();
            for (int i = 0; i < pieces; i++) {
                String piece = "part" + (char) ('a' + i) + ";";
                out.write((Integer.toHexString(piece.length()) + "\r\n" + piece + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                body.append(piece);
                Thread.sleep(200);
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException closed) {
            body.append(" (the balancer closed the connection: ").append(closed).append(')');
        }
        return body.toString();
    }

    /** Reads the answer until the balancer closes the connection (at most 10 s of silence); what arrived before a reset. */
    private static String readAnswer(Socket upload) throws IOException {
        upload.setSoTimeout(10_000);
        java.io.ByteArrayOutputStream received = new java.io.ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = upload.getInputStream().read(buffer)) >= 0; ) {
                received.write(buffer, 0, n);
            }
        } catch (java.net.SocketTimeoutException silent) {
            throw new AssertionError("the balancer neither finished an answer nor closed the connection; received: "
                    + received.toString(StandardCharsets.ISO_8859_1), silent);
        } catch (java.net.SocketException reset) {
            // the balancer may reset the connection after answering before the body ended; keep what arrived
        }
        return received.toString(StandardCharsets.ISO_8859_1);
    }

    /** Opens a form POST of {@code length} bytes to {@code /shop/cart} and sends its head and the body's first byte. */
    private static Socket startUpload(URI balancer, int length) throws IOException {
        Socket socket = new Socket(balancer.getHost(), balancer.getPort());
        OutputStream out = socket.getOutputStream();
        out.write(("POST /shop/cart HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + length + "\r\n\r\n"
                + (length > 3 ? "x" : "a"))
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        return socket;
    }
}
