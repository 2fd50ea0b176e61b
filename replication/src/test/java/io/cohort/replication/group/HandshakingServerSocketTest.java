package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.Secret;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The listening socket of a TLS member: {@code accept()} hands out only connections whose handshake completed with the
 * cluster's key, and a silent or hostile connection costs the members' connections nothing beyond its bounds.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class HandshakingServerSocketTest {

    private static final String CLUSTER = "shop";
    private static final Duration HANDSHAKE_TIME = Duration.ofSeconds(3);
    private static final String MEMBERS = "127.0.0.1";
    private static final String OUTSIDER = "127.0.0.3";

    /** The factory's client sockets are not used here. */
    private static final ClientHandshakeDeadlines NO_CLIENT_SOCKETS = new ClientHandshakeDeadlines(() -> 0, () -> 1,
            (task, millis) -> {
                throw new AssertionError("no client socket expected");
            }, (to, kind, reason) -> {
            });

    private final TlsIdentity identity = TlsIdentity.derive(ClusterKeys.derive(new Secret("k7Qw2ZrT9pLx4VbN8sYd", "test"),
            CLUSTER), CLUSTER);
    private final SSLContext context = identity.context();
    private final List<Refusal> refusals = new CopyOnWriteArrayList<>();
    private final List<Socket> opened = new ArrayList<>();
    private ServerSocket server;

    private record Refusal(SocketAddress from, String kind, String reason) {
    }

    @BeforeEach
    void listen() throws IOException {
        listen(HANDSHAKE_TIME);
    }

    private void listen(Duration handshakeTime) throws IOException {
        server = new TlsSocketFactory(context, () -> (int) handshakeTime.toMillis(),
                (from, kind, reason) -> refusals.add(new Refusal(from, kind, reason)),
                address -> address.getHostAddress().equals(MEMBERS), NO_CLIENT_SOCKETS)
                .createServerSocket("test", 0, 50, InetAddress.getByName(MEMBERS));
        assertThat(server).isInstanceOf(HandshakingServerSocket.class);
    }

    @AfterEach
    void close() throws IOException {
        for (Socket socket : opened) {
            socket.close();
        }
        server.close();
    }

    @Test
    void aMemberIsHandedOverOnceItsHandshakeCompleted() throws Exception {
        CompletableFuture<Socket> accepted = acceptLater();
        SSLSocket member = member(MEMBERS);
        member.startHandshake();
        member.getOutputStream().write(42);
        member.getOutputStream().flush();

        Socket socket = accepted.get(10, TimeUnit.SECONDS);
        opened.add(socket);
        assertThat(socket).isInstanceOf(SSLSocket.class);
        assertThat(((SSLSocket) socket).getSession().getProtocol()).isEqualTo(TlsIdentity.PROTOCOL);
        assertThat(socket.getSoTimeout()).as("the handshake's timeout is lifted").isZero();
        assertThat(socket.getInputStream().read()).isEqualTo(42);
        assertThat(refusals).isEmpty();
    }

    @Test
    void silentConnectionsBeyondTheBoundOfOneAddressAreRefusedAtOnceAndHoldUpNoOtherAddress() throws Exception {
        CompletableFuture<Socket> accepted = acceptLater();
        int silent = HandshakingServerSocket.MAX_UNDER_WAY_PER_ADDRESS + 3;
        for (int i = 0; i < silent; i++) {
            plain(OUTSIDER);
        }
        Await.until("the connections over the bound refused", () -> refusals.size() == 3);
        assertThat(refusals).extracting(Refusal::kind).containsOnly("too many handshakes under way from one address");

        SSLSocket member = member(MEMBERS);
        member.startHandshake();
        opened.add(accepted.get(HANDSHAKE_TIME.toMillis() / 2, TimeUnit.MILLISECONDS)); // before any silent one ran out

        Await.until("the silent connections refused when their time ran out", HANDSHAKE_TIME.plusSeconds(5),
                () -> refusals.size() == silent);
        assertThat(refusals.subList(3, silent)).extracting(Refusal::kind).containsOnly("no TLS handshake in time");
        assertThat(refusals.get(3).reason()).isEqualTo("no TLS handshake within 3000 ms");
        for (Socket socket : opened.subList(0, silent)) {
            socket.setSoTimeout(1_000);
            assertThat(closedByPeer(socket)).as("closed by the member").isTrue();
        }
    }

    /**
     * Silent connections from as many addresses as it takes to fill every handshake of non-members (8 addresses of 8):
     * the next one is refused, and a member's connection is still handed over at once. Without handshakes of their own
     * the member was refused as the next outsider was.
     */
    @Test
    void outsidersFillingTheirHandshakesFromManyAddressesDelayNoMember() throws Exception {
        server.close();
        listen(Duration.ofSeconds(60)); // no outsider's time runs out during the test, however slow the machine
        CompletableFuture<Socket> accepted = acceptLater();
        int perAddress = HandshakingServerSocket.MAX_UNDER_WAY_PER_ADDRESS;
        for (int address = 1; address <= HandshakingServerSocket.MAX_UNDER_WAY / perAddress; address++) {
            for (int i = 0; i < perAddress; i++) {
                plain("127.0.1." + address);
            }
        }
        plain("127.0.2.1");
        Await.until("the outsider over the bound refused", () -> refusals.size() == 1);
        assertThat(refusals.get(0).kind()).isEqualTo("too many handshakes under way");

        SSLSocket member = member(MEMBERS);
        member.startHandshake();
        opened.add(accepted.get(10, TimeUnit.SECONDS));
        assertThat(refusals).as("refused").hasSize(1);
    }

    @Test
    void clientsWithoutTheClustersCertificateOrWithAnOlderProtocolAreRefusedWithTheReason() throws Exception {
        CompletableFuture<Socket> accepted = acceptLater();
        SSLContext noCertificate = SSLContext.getInstance(TlsIdentity.PROTOCOL);
        noCertificate.init(null, new javax.net.ssl.TrustManager[] {trustAny()}, null);
        assertRefusedByServer(client(noCertificate, MEMBERS, TlsIdentity.PROTOCOL));
        assertRefusedByServer(client(context, MEMBERS, "TLSv1.2"));
        plain(MEMBERS).getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

        Await.until("three refusals", () -> refusals.size() == 3);
        assertThat(refusals).extracting(Refusal::reason).allMatch(reason -> reason.startsWith("javax.net.ssl."));
        assertThat(accepted).as("nothing handed over").isNotDone();
    }

    @Test
    void closingEndsAcceptAndTheHandshakesUnderWay() throws Exception {
        CompletableFuture<Socket> accepted = acceptLater();
        Socket silent = plain(OUTSIDER);
        Thread.sleep(300); // time for the accept loop to take it into a handshake (if not, closing resets it instead)
        server.close();

        assertThatThrownBy(accepted::join).hasCauseInstanceOf(SocketException.class);
        silent.setSoTimeout((int) HANDSHAKE_TIME.toMillis() / 2);
        assertThat(closedByPeer(silent)).as("closed with the server, before its time ran out").isTrue();
        assertThat(refusals).as("closing refuses nothing").isEmpty();
    }

    /** Whether the other end closed or reset the connection; false if it was still open at the socket's timeout. */
    private static boolean closedByPeer(Socket socket) {
        try {
            return socket.getInputStream().read() == -1;
        } catch (java.net.SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private CompletableFuture<Socket> acceptLater() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return server.accept();
            } catch (IOException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    private Socket plain(String from) throws IOException {
        Socket socket = new Socket();
        opened.add(socket);
        socket.bind(new InetSocketAddress(from, 0));
        socket.connect(server.getLocalSocketAddress(), 5_000);
        return socket;
    }

    private SSLSocket member(String from) throws IOException {
        return client(context, from, TlsIdentity.PROTOCOL);
    }

    private SSLSocket client(SSLContext client, String from, String protocol) throws IOException {
        SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(plain(from), MEMBERS,
                server.getLocalPort(), true);
        SSLParameters parameters = new SSLParameters();
        parameters.setProtocols(new String[] {protocol});
        socket.setSSLParameters(parameters);
        socket.setSoTimeout((int) HANDSHAKE_TIME.toMillis());
        opened.add(socket);
        return socket;
    }

    /** The client sees the refusal at the handshake or, in TLS 1.3, at its first read after it. */
    private static void assertRefusedByServer(SSLSocket client) {
        assertThatThrownBy(() -> {
            client.startHandshake();
            if (client.getInputStream().read() == -1) {
                throw new IOException("closed by the server");
            }
        }).isInstanceOf(IOException.class);
    }

    private static javax.net.ssl.X509TrustManager trustAny() {
        return new javax.net.ssl.X509TrustManager() {
            @Override
            public void checkClientTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(java.security.cert.X509Certificate[] chain, String authType) {
            }

            @Override
            public java.security.cert.X509Certificate[] getAcceptedIssuers() {
                return new java.security.cert.X509Certificate[0];
            }
        };
    }
}
