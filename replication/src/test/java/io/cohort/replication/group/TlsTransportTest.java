package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.Secret;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.security.GeneralSecurityException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.jgroups.BytesMessage;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.stack.ProtocolStack;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code <security tls="true">}: members connect over mutually authenticated TLS 1.3 with the key pair derived from
 * the secret, so what a host without the secret sends to the replication port is never read as JGroups' messages
 * (the arrival guards' counter, which counts every refused message JGroups parsed, stays at zero), and a client with
 * another secret's key fails the handshake. A killed member is still noticed at once, without FD_SOCK2.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTransportTest {

    private static final String SECRET = "k7Qw2ZrT9pLx4VbN8sYd";
    private static final Duration PATIENCE = Duration.ofSeconds(3);
    /** A loopback address the members do not use: the per-address bound on handshakes under way applies to it alone. */
    private static final String OUTSIDER_ADDRESS = "127.0.0.2";

    @Test
    void membersWithTheSecretReplicateOverTlsWithoutPayloadEncryptionSealsOrTheSocketFailureDetector() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)) {
            List<TestMember> members = group.startMembers(2);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("the copy arrives", () -> members.get(1).backupVersion(visit.id()) == visit.version());

            ProtocolStack stack = members.get(0).service().channel().channel().getProtocolStack();
            assertThat(stack.getTransport()).isInstanceOf(BufferedTcp.class);
            assertThat(stack.getTransport().getSocketFactory()).as("TLS sockets").isInstanceOf(TlsSocketFactory.class);
            assertThat((Object) stack.findProtocol(SYM_ENCRYPT.class)).as("SYM_ENCRYPT: TLS encrypts").isNull();
            assertThat((Object) stack.findProtocol(FD_SOCK2.class)).as("FD_SOCK2: its port is outside TLS").isNull();
            assertThat(members.get(0).service().channel().seals()).as("frames sealed: TLS authenticates them").isFalse();
            BufferedTcp transport = (BufferedTcp) stack.getTransport();
            assertThat(transport.isMemberAddress(InetAddress.getByName("127.0.0.1"))).as("the members' address").isTrue();
            assertThat(transport.isMemberAddress(InetAddress.getByName(OUTSIDER_ADDRESS))).as("another").isFalse();
        }
    }

    @Test
    void whatAHostWithoutTheSecretSendsIsNeverReadAsAMessage() throws Exception {
        byte[] unencrypted = null;
        // the control: the same bytes to a member secured without TLS are read (and refused by the arrival guards)
        try (TestGroup plain = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).secured(SECRET, true)) {
            TestMember victim = plain.startMembers(2).get(1);
            unencrypted = Outsider.frame(new BytesMessage(Outsider.address(victim), new byte[] {1, 2, 3}));

            assertThat(Outsider.sendAndSeeClosed(victim, PATIENCE, unencrypted)).as("connection closed by the member").isFalse();
            Await.until("the message read and refused", () -> victim.rejectedMessages() == 1);
        }
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)) {
            List<TestMember> members = group.startMembers(2);
            TestMember victim = members.get(1);

            assertThat(Outsider.sendAndSeeClosed(victim, PATIENCE, unencrypted)).as("connection closed by the member").isTrue();

            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("still", "working"));
            Await.until("replication still works", () -> victim.backupVersion(visit.id()) == visit.version());
            // the TLS engine closes the connection with its alert before the failed handshake returns to be counted
            Await.until("the refusal counted", () -> victim.refusedConnections() >= 1);
            assertThat(victim.rejectedMessages()).as("messages JGroups read and the guards refused").isZero();
            assertThat(victim.refusedConnections()).as("connections refused").isEqualTo(1);
        }
    }

    @Test
    void aClientWithAnotherSecretsKeyFailsTheHandshakeAndOneWithTheClustersKeyPassesIt() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)) {
            TestMember member = group.startMembers(1).get(0);
            String cluster = member.service().channel().channel().getClusterName();
            InetSocketAddress port = Outsider.listening(member);

            // after a handshake it accepted, the member takes a peer's greeting and waits for messages: the read times out
            assertThatThrownBy(() -> readAfterHandshake(port, clientOf(identity(SECRET, cluster).keyManagers())))
                    .isInstanceOf(SocketTimeoutException.class);
            // clients that trust any server, so that only the member's check decides: the same secret for another
            // cluster name derives another key, as does another secret; and a client without a certificate
            assertThat(readAfterHandshake(port, clientOf(identity(SECRET, cluster + "-other").keyManagers()))).as("refused").isTrue();
            assertThat(readAfterHandshake(port, clientOf(identity("guessed-secret-0123456789", cluster).keyManagers())))
                    .as("refused").isTrue();
            assertThat(readAfterHandshake(port, clientOf(null))).as("refused").isTrue();
            Await.until("the three refusals counted", () -> member.refusedConnections() == 3);
        }
    }

    @Test
    void aKilledMemberLeavesTheViewAtOnceThoughHeartbeatsWouldTakeAMinute() throws Exception {
        Map<String, String> slowHeartbeats = Map.of("cohort.fd.timeout", "60s", "cohort.fd.interval", "10s");
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)
                .tuning(slowHeartbeats)) {
            List<TestMember> members = group.startMembers(2);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("the copy arrives", () -> members.get(1).backupVersion(visit.id()) == visit.version());

            members.get(1).crash();

            TestGroup.awaitMembers(List.of(members.get(0)), Duration.ofSeconds(15));
        }
    }

    @Test
    void silentConnectionsFromAnOutsiderDoNotHoldUpAMembersHandshake() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.defaults()).securedWithTls(SECRET)) {
            TestMember first = group.start(0, "n1");
            InetSocketAddress port = Outsider.listening(first);
            int silent = 40; // each would hold the acceptor for the greeting timeout if handshakes ran one after another
            List<Socket> outsider = new ArrayList<>();
            try {
                for (int i = 0; i < silent; i++) {
                    Socket socket = new Socket();
                    socket.bind(new InetSocketAddress(OUTSIDER_ADDRESS, 0)); // another source address than the members'
                    socket.connect(port, 5_000);
                    outsider.add(socket);
                }
                TestMember second = group.start(1, "n2");

                TestGroup.awaitMembers(List.of(first, second), Duration.ofSeconds(10));
                ShopVisit visit = new ShopVisit(first).request(Map.of("cart", "EST-1"));
                Await.until("the copy arrives", () -> second.backupVersion(visit.id()) == visit.version());
                // those over the per-address bound refused at once, the others once their handshake time ran out
                Await.until("every silent connection refused", () -> first.refusedConnections() == silent);
            } finally {
                for (Socket socket : outsider) {
                    socket.close();
                }
            }
        }
    }

    private static TlsIdentity identity(String secret, String cluster) {
        return TlsIdentity.derive(ClusterKeys.derive(new Secret(secret, "test"), cluster), cluster);
    }

    /** A TLS 1.3 client presenting what {@code keys} hold (nothing if null) and trusting any server. */
    private static SSLContext clientOf(KeyManager[] keys) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance(TlsIdentity.PROTOCOL);
        context.init(keys, new TrustManager[] {new TrustAnyServer()}, null);
        return context;
    }

    /** Trusts whatever a server presents: this client tests the member's check of clients, not its own. */
    private static final class TrustAnyServer implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("a client-side manager");
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
            // any server
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /**
     * Connects with the {@code client} context, completes the handshake as far as the client can tell, and reads.
     *
     * @return true if the member ended the connection (a TLS alert, a reset or end of stream)
     * @throws SocketTimeoutException if the member kept the connection open, waiting for a peer's bytes
     */
    private static boolean readAfterHandshake(InetSocketAddress port, SSLContext client) throws IOException {
        try (SSLSocket socket = (SSLSocket) client.getSocketFactory().createSocket(port.getAddress(), port.getPort())) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            try {
                socket.startHandshake();
                Outsider.greet(socket);
                return socket.getInputStream().read() == -1;
            } catch (SocketTimeoutException stillOpen) {
                throw stillOpen;
            } catch (IOException refused) {
                return true;
            }
        }
    }
}
