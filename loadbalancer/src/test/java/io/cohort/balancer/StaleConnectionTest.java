package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member closes a kept-alive connection (its idle timeout ran out) at the moment the balancer takes it from the pool
 * and sends a request on it. That race is made certain here by a member that answers the first request on each
 * connection and closes the connection when the second one arrives, unanswered. A request that can run twice is then
 * sent to the same member again, on a new connection, with no error counted against the member; one that cannot is
 * answered 502, as before.
 */
@Timeout(60)
class StaleConnectionTest {

    /** Answers the first request on each connection (keeping it open) and closes the connection on the second. */
    private static final class ClosingOnSecondRequest implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final AtomicInteger requests = new AtomicInteger();

        ClosingOnSecondRequest() throws IOException {
            Thread acceptor = new Thread(this::accept, "closing-member");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void accept() {
            while (!socket.isClosed()) {
                try {
                    Socket connection = socket.accept();
                    connections.incrementAndGet();
                    Thread serving = new Thread(() -> serve(connection), "closing-member-connection");
                    serving.setDaemon(true);
                    serving.start();
                } catch (IOException closed) {
                    return;
                }
            }
        }

        private void serve(Socket connection) {
            try (connection) {
                InputStream in = connection.getInputStream();
                if (!RawHttp.readHead(in)) {
                    return;
                }
                requests.incrementAndGet();
                OutputStream out = connection.getOutputStream();
                out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                if (RawHttp.readHead(in)) {
                    requests.incrementAndGet(); // read, and left unanswered: the connection closes under it
                }
            } catch (IOException gone) {
                // the balancer closed the connection
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aGetThatWentOutOnAConnectionTheMemberClosedIsSentToItAgain() throws Exception {
        try (ClosingOnSecondRequest member = new ClosingOnSecondRequest(); TestBalancer lb = TestBalancer.start(settings(member))) {
            assertThat(lb.get("/first").statusCode()).isEqualTo(200);

            HttpResponse<String> second = lb.get("/second");

            assertThat(second.statusCode()).as("the GET on the closed connection").isEqualTo(200);
            assertThat(second.body()).isEqualTo("ok");
            Backend backend = lb.backend("m");
            assertThat(member.requests.get()).as("requests the member read: the second one twice").isEqualTo(3);
            assertThat(member.connections.get()).isEqualTo(2);
            assertThat(backend.meters().resends.count()).isEqualTo(1);
            assertThat(backend.meters().errors.count()).as("errors of the member").isZero();
            assertThat(backend.meters().retries.count()).isZero();
            assertThat(backend.isUp()).isTrue();
        }
    }

    @Test
    void aPostThatWentOutOnAConnectionTheMemberClosedIsNotSentAgain() throws Exception {
        try (ClosingOnSecondRequest member = new ClosingOnSecondRequest(); TestBalancer lb = TestBalancer.start(settings(member))) {
            assertThat(lb.get("/first").statusCode()).isEqualTo(200);

            HttpResponse<String> post = lb.post("/order", "");

            assertThat(post.statusCode()).as("a POST the member may have acted on").isEqualTo(502);
            assertThat(member.requests.get()).isEqualTo(2);
            assertThat(lb.backend("m").meters().resends.count()).isZero();
            assertThat(lb.backend("m").meters().errors.count()).isEqualTo(1);
        }
    }

    @Test
    void aHealthCheckThatWentOutOnAConnectionTheMemberClosedIsSentAgainBeforeItCounts() throws Exception {
        try (ClosingOnSecondRequest member = new ClosingOnSecondRequest(); TestBalancer lb = TestBalancer.start(settings(member))) {
            lb.server.healthChecker().checkAll().get();
            lb.server.healthChecker().checkAll().get();

            assertThat(member.requests.get()).as("health requests the member read: the second one twice").isEqualTo(3);
            assertThat(lb.backend("m").isUp()).as("up after a check on a closed connection (the tests' fall is 1)").isTrue();
        }
    }

    private static TestBalancer.Settings settings(ClosingOnSecondRequest member) {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.socketMembers = Map.of("m", member.port());
        return settings;
    }
}
