package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bind address that cannot be bound on the machine that loads the file is refused at its attribute when a node or
 * balancer loads its file (not at the bind, with no position); a file parsed from a stream, perhaps meant for another
 * machine, is not checked.
 */
class BindAddressCheckTest {
    /** In TEST-NET-2 (RFC 5737, documentation only): no machine's address. */
    private static final String FOREIGN = "198.51.100.7";

    @TempDir
    Path dir;

    @org.junit.jupiter.api.BeforeAll
    static void theForeignAddressCannotBeBoundHere() throws Exception {
        try (java.net.ServerSocket probe = new java.net.ServerSocket()) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> probe.bind(new java.net.InetSocketAddress(FOREIGN, 0)))
                    .as("these tests need " + FOREIGN + " not to be bindable here (not an address of this machine, "
                            + "no net.ipv4.ip_nonlocal_bind)").isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void aNodeWhoseBindAddressDoesNotResolveIsRefusedAtTheAttribute() throws Exception {
        Path file = write("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" bind-addr="no-such-host.invalid"/>
                </cohort>""");

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(file));

        assertThat(e).hasMessage(file + ":2:19: bind-addr=\"no-such-host.invalid\" on <node> does not resolve on this "
                + "machine; expected an address of this machine, or a host name that resolves to one");
    }

    @Test
    void aPeerGroupBoundToAnotherMachinesAddressIsRefusedNamingThisMachinesAddresses() throws Exception {
        Path file = writeCluster("", "<peer bind-addr=\"" + FOREIGN + "\"/>");

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(file));

        assertThat(e).hasMessageStartingWith(file + ":4:21: bind-addr=\"" + FOREIGN + "\" on <peer> is not an address of "
                + "this machine; expected one of ").hasMessageContaining("127.0.0.1").hasMessageNotContaining("%")
                .hasMessageEndingWith(", or 0.0.0.0 for every one");
    }

    @Test
    void theAdminEndpointAndTheBalancersAddressesAreCheckedToo() throws Exception {
        Path admin = write("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin bind-addr="%s"/>
                </cohort>""".formatted(FOREIGN));
        assertThat(catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(admin)))
                .hasMessageStartingWith(admin + ":3:10: bind-addr=\"" + FOREIGN + "\" on <admin> is not an address of this machine");

        Path balancer = write("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer name="lb" admin-bind-addr="%s">
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""".formatted(FOREIGN));
        assertThat(catchThrowableOfType(ConfigException.class, () -> ConfigLoader.loadBalancer(balancer)))
                .hasMessageStartingWith(balancer + ":2:23: admin-bind-addr=\"" + FOREIGN + "\" on <balancer> is not an address");
    }

    @Test
    void wildcardLoopbackNamesOfThisMachineAndADisabledAdminEndpointAreAccepted() throws Exception {
        Path file = write("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" bind-addr="0.0.0.0"/>
                  <admin enabled="false" bind-addr="%s"/>
                  <cluster name="c">
                    <protocol><peer bind-addr="localhost"/></protocol>
                  </cluster>
                </cohort>""".formatted(FOREIGN));

        CohortConfig config = ConfigLoader.load(file);

        assertThat(config.node().bindAddress()).isEqualTo("0.0.0.0");
        assertThat(((PeerProtocol) config.cluster().orElseThrow().protocol()).bindAddress()).isEqualTo("localhost");
    }

    @Test
    void aDisabledClusterAndJGroupsOwnAddressWordsAreLeftAlone() throws Exception {
        Path disabled = writeCluster(" enabled=\"false\"", "<peer bind-addr=\"" + FOREIGN + "\"/>");
        assertThat(ConfigLoader.load(disabled).cluster().orElseThrow().enabled()).isFalse();

        for (String word : new String[] {"SITE_LOCAL", "non_loopback", "USE_LOCALHOST", "match-interface:lo"}) {
            Path file = writeCluster("", "<multicast bind-addr=\"" + word + "\"/>");
            assertThat(((MulticastProtocol) ConfigLoader.load(file).cluster().orElseThrow().protocol()).bindAddress())
                    .as("JGroups picks the address for %s", word).isEqualTo(word);
        }
    }

    @Test
    void aFileParsedFromAStreamMayBeMeantForAnotherMachine() throws Exception {
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" bind-addr="%s"/>
                </cohort>""".formatted(FOREIGN);

        CohortConfig config = ConfigLoader.parse("cohort.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)),
                dir, Map.<String, String>of()::get);

        assertThat(config.node().bindAddress()).isEqualTo(FOREIGN);
    }

    /** A node with a {@code <cluster>} of these attributes (after its name) around this protocol element. */
    private Path writeCluster(String clusterAttributes, String protocol) throws Exception {
        return write("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"%s>
                    <protocol>%s</protocol>
                  </cluster>
                </cohort>""".formatted(clusterAttributes, protocol));
    }

    private Path write(String xml) throws Exception {
        Path file = Files.createTempFile(dir, "cohort", ".xml");
        Files.writeString(file, xml);
        return file;
    }
}
