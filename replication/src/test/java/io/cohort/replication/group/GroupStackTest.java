package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.config.ClusterConfig;
import io.cohort.config.Discovery;
import io.cohort.config.MulticastProtocol;
import io.cohort.config.PeerMember;
import io.cohort.config.PeerProtocol;
import io.cohort.config.ProtocolConfig;
import io.cohort.config.Secret;
import io.cohort.config.SecurityConfig;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jgroups.JChannel;
import org.jgroups.protocols.AUTH;
import org.jgroups.protocols.BasicTCP;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.NoBundler;
import org.jgroups.protocols.PerDestinationBundler;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.TCP_NIO2;
import org.jgroups.protocols.TP;
import org.jgroups.protocols.UDP;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.stack.IpAddress;
import org.jgroups.stack.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The JGroups stacks built from configuration (channels are created, never connected). */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class GroupStackTest {

    private static PeerProtocol peer(Discovery discovery, Optional<String> dns, Optional<Path> stack) {
        return new PeerProtocol("127.0.0.1", 7900, 3, Duration.ofSeconds(2), discovery, dns, Optional.empty(), stack,
                discovery == Discovery.STATIC ? List.of(new PeerMember("10.0.0.1", 7900), new PeerMember("10.0.0.2", 7901))
                        : List.of(), PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL);
    }

    private static JChannel channel(ProtocolConfig protocol, Optional<SecurityConfig> security) throws Exception {
        ClusterConfig cluster = new ClusterConfig("shop", true, TestGroup.defaults(), protocol, security);
        return GroupStack.create(cluster, "n1", Map.of(),
                security.map(s -> ClusterKeys.derive(s.secret(), cluster.name())));
    }

    @Test
    void peerStackBindsTheConfiguredAddressWithoutDiagnosticsAndProbesTheMembers() throws Exception {
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), Optional.empty())) {
            BasicTCP tcp = channel.getProtocolStack().findProtocol(BasicTCP.class);
            assertThat(tcp.getBindAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(tcp.getBindPort()).isEqualTo(7900);
            assertThat(tcp.getPortRange()).isEqualTo(2);
            assertThat(tcp.getDiagnosticsHandler().isEnabled()).isFalse();
            TCPPING ping = channel.getProtocolStack().findProtocol(TCPPING.class);
            assertThat(ping.getInitialHosts()).extracting(Object::toString)
                    .contains("10.0.0.1:7900", "10.0.0.1:7902", "10.0.0.2:7901", "10.0.0.2:7903"); // range 3 per member
            assertThat(channel.getName()).isEqualTo("n1");
        }
    }

    @Test
    void aStaticPeerWithoutMembersProbesItsOwnAddressAsJGroupsPicksIt() throws Exception {
        PeerProtocol alone = new PeerProtocol("LOOPBACK", 7900, 3, Duration.ofSeconds(2), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(), List.of(), PeerProtocol.DEFAULT_BATCH_SIZE,
                PeerProtocol.DEFAULT_FLUSH_INTERVAL);
        try (JChannel channel = channel(alone, Optional.empty())) {
            InetAddress bound = channel.getProtocolStack().getTransport().getBindAddress();
            assertThat(bound.isLoopbackAddress()).isTrue();
            TCPPING ping = channel.getProtocolStack().findProtocol(TCPPING.class);
            assertThat(ping.getInitialHosts()).extracting(Object::toString)
                    .containsExactlyInAnyOrder(new IpAddress(bound, 7900).toString(),
                            new IpAddress(bound, 7901).toString(), new IpAddress(bound, 7902).toString());
        }
    }

    @Test
    void peerStackWritesFromTheSendingThreadOnNonBlockingSocketsUnlessToldOtherwise() throws Exception {
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), Optional.empty())) {
            TP transport = channel.getProtocolStack().getTransport();
            assertThat(transport).isInstanceOf(TCP_NIO2.class);
            assertThat(transport.getBundler()).isInstanceOf(NoBundler.class);
        }
        System.setProperty("cohort.transport", "TCP");
        System.setProperty("cohort.bundler_type", "pd");
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), Optional.empty())) {
            TP transport = channel.getProtocolStack().getTransport();
            assertThat(transport).isInstanceOf(TCP.class);
            assertThat(transport.getBundler()).isInstanceOf(PerDestinationBundler.class);
        } finally {
            System.clearProperty("cohort.transport");
            System.clearProperty("cohort.bundler_type");
        }
    }

    @Test
    void multicastStackUsesTheConfiguredGroupPortTtlAndInterface() throws Exception {
        try (JChannel channel = channel(new MulticastProtocol("230.1.2.3", 45000, "127.0.0.1", 0, Optional.empty(), PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL),
                Optional.empty())) {
            UDP udp = channel.getProtocolStack().findProtocol(UDP.class);
            assertThat(udp.getMulticastAddress().getHostAddress()).isEqualTo("230.1.2.3");
            assertThat(udp.getMulticastPort()).isEqualTo(45000);
            assertThat(udp.getMulticastTTL()).isZero();
            assertThat(udp.getBindAddress().getHostAddress()).isEqualTo("127.0.0.1");
            assertThat(udp.getDiagnosticsHandler().isEnabled()).isFalse();
        }
    }

    @Test
    void dnsDiscoveryReplacesTheStaticMemberList() throws Exception {
        try (JChannel channel = channel(peer(Discovery.DNS, Optional.of("cohort.shop.svc"), Optional.empty()),
                Optional.empty())) {
            Protocol staticList = channel.getProtocolStack().findProtocol(TCPPING.class);
            assertThat(staticList).isNull();
            DNS_PING dns = channel.getProtocolStack().findProtocol(DNS_PING.class);
            assertThat(dns.dnsQuery()).isEqualTo("cohort.shop.svc");
        }
    }

    @Test
    void securityAddsAuthBelowGmsAndEncryptionBelowReliableDelivery() throws Exception {
        var secured = Optional.of(new SecurityConfig(new Secret("s3cret", "test"), true));
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), secured)) {
            var stack = channel.getProtocolStack();
            Protocol auth = stack.findProtocol(AUTH.class);
            Protocol encrypt = stack.findProtocol(SYM_ENCRYPT.class);
            assertThat((Object) auth.getUpProtocol()).isInstanceOf(GMS.class);
            assertThat((Object) encrypt.getUpProtocol()).isInstanceOf(NAKACK2.class);
            assertThat(((AUTH) stack.findProtocol(AUTH.class)).getAuthToken()).isInstanceOf(SharedSecretToken.class);
            assertThat(encrypt).as("counts failed decryptions").isInstanceOf(CountedSymEncrypt.class);
            assertThat(((SYM_ENCRYPT) encrypt).symAlgorithm()).as("a mode without padding: no padding oracle")
                    .isEqualTo("AES/CTR/NoPadding");
        }
        var authenticatedOnly = Optional.of(new SecurityConfig(new Secret("s3cret", "test"), false));
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), authenticatedOnly)) {
            Protocol auth = channel.getProtocolStack().findProtocol(AUTH.class);
            Protocol encrypt = channel.getProtocolStack().findProtocol(SYM_ENCRYPT.class);
            assertThat(auth).isNotNull();
            assertThat(encrypt).isNull();
        }
    }

    @Test
    void tlsRunsTheBlockingTransportWithASenderPerMemberAndNeitherPayloadEncryptionNorTheSocketFailureDetector() throws Exception {
        var tls = Optional.of(new SecurityConfig(new Secret("s3cret", "test"), true, true));
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.empty()), tls)) {
            var stack = channel.getProtocolStack();
            assertThat(stack.getTransport()).isInstanceOf(BufferedTcp.class);
            TCP tcp = (TCP) stack.getTransport();
            assertThat(tcp.getSocketFactory()).isInstanceOf(TlsSocketFactory.class); // HandshakingServerSocketTest
            assertThat(tcp.getBundler()).isInstanceOf(PerDestinationBundler.class);
            assertThat(((PerDestinationBundler) tcp.getBundler()).useSingleSenderThread()).as("one sender for all").isFalse();
            assertThat(tcp.enableSuspectEvents()).isTrue();
            assertThat((Object) stack.findProtocol(FD_SOCK2.class)).isNull();
            assertThat((Object) stack.findProtocol(SYM_ENCRYPT.class)).isNull();
            assertThat((Object) stack.findProtocol(AUTH.class)).isNotNull();
        }
    }

    @Test
    void tlsRefusesACustomStackWhoseTransportIsNotTcp(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("udp.xml");
        try (var in = GroupStack.class.getResourceAsStream(GroupStack.MULTICAST_STACK)) {
            Files.write(file, in.readAllBytes());
        }
        var tls = Optional.of(new SecurityConfig(new Secret("s3cret", "test"), true, true));
        assertThatThrownBy(() -> channel(peer(Discovery.STATIC, Optional.empty(), Optional.of(file)), tls).close())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a TCP transport");
    }

    @Test
    void aCustomStackFileIsUsedWithCohortsValuesFilledIn(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("my-tcp.xml");
        try (var in = GroupStack.class.getResourceAsStream(GroupStack.PEER_STACK)) {
            Files.writeString(file, new String(in.readAllBytes()).replace("${cohort.fd.timeout:12s}", "33s"));
        }
        try (JChannel channel = channel(peer(Discovery.STATIC, Optional.empty(), Optional.of(file)), Optional.empty())) {
            BasicTCP tcp = channel.getProtocolStack().findProtocol(BasicTCP.class);
            assertThat(tcp.getBindPort()).isEqualTo(7900);
            assertThat(channel.getProtocolStack().printProtocolSpec(false)).contains("FD_ALL3");
            org.jgroups.protocols.FD_ALL3 fd = channel.getProtocolStack().findProtocol(org.jgroups.protocols.FD_ALL3.class);
            assertThat(fd.getTimeout()).isEqualTo(33_000);
        }
    }

    @Test
    void placeholdersTakeCohortValuesThenSystemPropertiesThenDefaultsAndAreEscaped() {
        String xml = "<X a=\"${cohort.a:1}\" b=\"${cohort.test.b:2}\" c=\"${cohort.c:3}\" d=\"${jgroups.other}\"/>";
        System.setProperty("cohort.test.b", "from-system");
        try {
            assertThat(StackTemplate.fill(xml, Map.of("cohort.a", "x\"<&")))
                    .isEqualTo("<X a=\"x&quot;&lt;&amp;\" b=\"from-system\" c=\"3\" d=\"${jgroups.other}\"/>");
        } finally {
            System.clearProperty("cohort.test.b");
        }
    }
}
