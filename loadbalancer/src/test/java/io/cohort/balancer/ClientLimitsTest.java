package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cohort.config.ClientLimitsConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code <client-limits>}: a deadline for every request head, and caps on client connections. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientLimitsTest {

    /** More connections than Java's default listen backlog (50) holds. */
    private static final int BURST = 200;

    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^Content-Length:\\s*(\\d+)\\s*$");

    @Test
    void aClientThatSendsItsHeadALineAtATimeIsCutOffAtTheHeaderTimeout() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(limits(Duration.ofSeconds(1), 10_000, OptionalInt.empty()), n1);
                Socket client = connect(lb.server.uri())) {
            // one header line every 200 ms, far inside the 30 s idle timeout: without a head deadline this lasts 10 s
            long tookMillis = dripHeadUntilClosed(client);

            assertThat(tookMillis).as("closed after the 1 s deadline, well before the 10 s of lines").isBetween(500L, 6_000L);
            assertThat(n1.served()).isZero();
            assertThat(lb.server.clientClosures().count(ClientConnectionClosures.Reason.HEADER_TIMEOUT)).isEqualTo(1);
        }
    }

    @Test
    void anIdleKeepAliveConnectionOutlivesTheHeaderTimeoutButASlowNextHeadOnItIsCutOff() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(limits(Duration.ofSeconds(1), 10_000, OptionalInt.empty()), n1);
                Socket client = connect(lb.server.uri())) {
            write(client.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(readAnswer(client)).startsWith("HTTP/1.1 200 ").endsWith("n1");

            Thread.sleep(2_500); // idle for more than twice the header timeout: the idle timeout (30 s) governs
            write(client.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(readAnswer(client)).as("the idle connection still serves").startsWith("HTTP/1.1 200 ");
            assertThat(lb.server.clientClosures().count(ClientConnectionClosures.Reason.HEADER_TIMEOUT)).isZero();

            Thread.sleep(1_500);
            long tookMillis = dripHeadUntilClosed(client);

            assertThat(tookMillis).as("a head begun after an idle wait gets at most twice the timeout").isLessThan(6_000L);
            assertThat(n1.served()).isEqualTo(2);
            assertThat(lb.server.clientClosures().count(ClientConnectionClosures.Reason.HEADER_TIMEOUT)).isEqualTo(1);
        }
    }

    @Test
    void noDeadlineRunsWhileARequestIsAnsweredAndTheNextHeadGetsAFreshOne() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(limits(Duration.ofSeconds(1), 10_000, OptionalInt.empty()), n1);
                Socket client = connect(lb.server.uri())) {
            write(client.getOutputStream(), "GET /hold HTTP/1.1\r\nHost: localhost\r\n\r\n");
            n1.awaitHeld();
            Thread.sleep(2_000); // twice the header timeout while the member answers
            n1.releaseHeld();
            assertThat(readAnswer(client)).startsWith("HTTP/1.1 200 ");

            Thread.sleep(500);
            write(client.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(readAnswer(client)).as("the same connection serves the next request").startsWith("HTTP/1.1 200 ").endsWith("n1");
            assertThat(n1.served()).as("/shop/ (a held request is not counted)").isEqualTo(1);
        }
    }

    @Test
    void aConnectionOverThePerAddressLimitIsClosedAtOnceAndTheOthersServe() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = limits(Duration.ofSeconds(10), 10_000, OptionalInt.of(2));
        List<Socket> sockets = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            AddressConnectionLimit limit = lb.server.proxyConnectorBean(AddressConnectionLimit.class);
            InetAddress loopback = InetAddress.getByName("127.0.0.1");
            sockets.add(connect(lb.server.uri()));
            sockets.add(connect(lb.server.uri()));
            awaitOpen(limit, loopback, 2);
            Socket third = connect(lb.server.uri());
            sockets.add(third);
            third.setSoTimeout(5_000);

            assertThat(readOrReset(third)).as("the third connection is closed without an answer").isEqualTo(-1);
            assertThat(lb.server.clientClosures().count(ClientConnectionClosures.Reason.PER_ADDRESS_LIMIT)).isEqualTo(1);
            for (Socket open : sockets.subList(0, 2)) {
                write(open.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThat(readAnswer(open)).startsWith("HTTP/1.1 200 ");
            }

            sockets.get(0).close();
            awaitOpen(limit, loopback, 1);
            try (Socket again = connect(lb.server.uri())) {
                write(again.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
                assertThat(readAnswer(again)).as("a closed connection frees its place").startsWith("HTTP/1.1 200 ");
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void connectionsFromATrustedProxyAreNotCountedPerAddress() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = limits(Duration.ofSeconds(10), 10_000, OptionalInt.of(1));
        settings.trustedProxies = List.of("127.0.0.1");
        List<Socket> sockets = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            for (int i = 0; i < 3; i++) {
                sockets.add(connect(lb.server.uri()));
            }
            for (Socket socket : sockets) {
                write(socket.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: 192.0.2.1\r\n\r\n");
                assertThat(readAnswer(socket)).startsWith("HTTP/1.1 200 ");
            }
            assertThat(lb.server.clientClosures().count(ClientConnectionClosures.Reason.PER_ADDRESS_LIMIT)).isZero();
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void overTheTotalLimitNewConnectionsWaitUntilOneCloses() throws Exception {
        StubMember n1 = StubMember.start("n1");
        List<Socket> idle = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(limits(Duration.ofSeconds(30), 2, OptionalInt.empty()), n1)) {
            idle.add(connect(lb.server.uri()));
            idle.add(connect(lb.server.uri()));
            Thread.sleep(300); // both accepted
            try (Socket waiting = connect(lb.server.uri())) { // the kernel completes the handshake; the balancer does not accept it
                write(waiting.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n\r\n");
                waiting.setSoTimeout(1_000);
                boolean answeredEarly;
                try {
                    answeredEarly = waiting.getInputStream().read() >= 0;
                } catch (SocketTimeoutException e) {
                    answeredEarly = false;
                }
                assertThat(answeredEarly).as("no answer while two connections are open").isFalse();
                assertThat(n1.served()).isZero();

                idle.get(0).close();
                waiting.setSoTimeout(10_000);
                assertThat(readAnswer(waiting)).as("accepted once one closed").startsWith("HTTP/1.1 200 ");
            }
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    /**
     * At the total limit the balancer accepts nothing more, so new connections wait in the proxy port's accept queue:
     * a burst of more than Java's default listen backlog (50) must fit in it. Linux drops the SYN of a connection that
     * does not fit, and its connect times out.
     */
    @Test
    void overTheTotalLimitABurstOfConnectionsWaitsInTheAcceptQueueAndIsServed() throws Exception {
        assumeKernelQueuesAtLeast(BURST);
        StubMember n1 = StubMember.start("n1");
        List<Socket> idle = new ArrayList<>();
        List<Socket> burst = new ArrayList<>();
        try (TestBalancer lb = TestBalancer.start(limits(Duration.ofSeconds(30), 2, OptionalInt.empty()), n1)) {
            idle.add(connect(lb.server.uri()));
            idle.add(connect(lb.server.uri()));
            for (int i = 0; i < BURST; i++) {
                Socket socket = new Socket();
                burst.add(socket);
                try {
                    socket.connect(new InetSocketAddress(lb.server.uri().getHost(), lb.server.uri().getPort()), 2_000);
                } catch (SocketTimeoutException dropped) {
                    throw new AssertionError("connection " + (i + 1) + " of " + BURST + " over the limit timed out: the "
                            + "proxy port's accept queue was full and the kernel dropped the SYN", dropped);
                }
                write(socket.getOutputStream(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            }

            for (Socket open : idle) {
                open.close();
            }
            for (Socket socket : burst) {
                socket.setSoTimeout(10_000);
                String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                socket.close(); // the balancer's end closes once the client's has: only then is the next one accepted
                assertThat(answer).startsWith("HTTP/1.1 200 ").endsWith("n1");
            }
            assertThat(n1.served()).isEqualTo(BURST);
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
            for (Socket socket : burst) {
                socket.close();
            }
        }
    }

    /** Skips on a kernel that caps every listen queue below {@code connections} (e.g. Linux before 5.4: 128). */
    private static void assumeKernelQueuesAtLeast(int connections) throws IOException {
        Path somaxconn = Path.of("/proc/sys/net/core/somaxconn");
        assumeTrue(Files.isReadable(somaxconn), "a Linux kernel, whose full accept queue drops new connections");
        // in lines: a sysctl answers one read only, and Files.readString of a file of size 0 reads one byte first
        int cap = Integer.parseInt(Files.readAllLines(somaxconn).get(0).trim());
        assumeTrue(cap >= connections, "net.core.somaxconn is " + cap + ", below the " + connections + " connections of the burst");
    }

    /**
     * Sends a request line and then one header line every 200 ms (at most 50) until the balancer closes the connection;
     * fails if it never does. Returns the milliseconds from the first byte to the close.
     */
    private static long dripHeadUntilClosed(Socket client) throws IOException {
        client.setSoTimeout(200);
        OutputStream out = client.getOutputStream();
        long start = System.nanoTime();
        write(out, "GET /shop/ HTTP/1.1\r\nHost: localhost\r\n");
        for (int line = 0; line < 50; line++) {
            try {
                write(out, "X-Line-" + line + ": x\r\n");
                if (client.getInputStream().read() < 0) {
                    return Duration.ofNanos(System.nanoTime() - start).toMillis();
                }
                throw new AssertionError("the balancer answered a head that was never finished");
            } catch (SocketTimeoutException e) {
                // nothing to read yet: the connection is still open
            } catch (SocketException e) {
                return Duration.ofNanos(System.nanoTime() - start).toMillis(); // the write found the connection reset
            }
        }
        throw new AssertionError("the connection was still open after 50 header lines");
    }

    private static TestBalancer.Settings limits(Duration headerTimeout, int maxConnections, OptionalInt perAddress) {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.clientLimits = new ClientLimitsConfig(headerTimeout, maxConnections, perAddress, Optional.empty());
        return settings;
    }

    private static Socket connect(URI balancer) throws IOException {
        Socket socket = new Socket(balancer.getHost(), balancer.getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    /** Reads one answer with a Content-Length body, leaving the connection open for the next. */
    private static String readAnswer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed after: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        Matcher length = CONTENT_LENGTH.matcher(text);
        if (!length.find()) {
            throw new IOException("no Content-Length in: " + text);
        }
        return text + new String(in.readNBytes(Integer.parseInt(length.group(1))), StandardCharsets.ISO_8859_1);
    }

    private static int readOrReset(Socket socket) throws IOException {
        try {
            return socket.getInputStream().read();
        } catch (SocketException e) {
            return -1;
        }
    }

    private static void awaitOpen(AddressConnectionLimit limit, InetAddress address, int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (limit.openFrom(address) != count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(address + " has " + limit.openFrom(address) + " connections open, not " + count);
            }
            Thread.sleep(10);
        }
    }
}
