package io.cohort.config;

import static io.cohort.config.TestConfigs.errorOfText;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Checks the schema cannot express, made after binding; each error still points into the file. */
class CrossFieldValidationTest {

    private static String cluster(String protocolAndSecurity) {
        return """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <datasource name="jdbc/shop" url="jdbc:h2:mem:shop"/>
                  <cluster name="c">
                %s
                  </cluster>
                </cohort>""".formatted(protocolAndSecurity);
    }

    @Test
    void anAdminMaxUploadOfNothingIsRefusedAtItsAttribute() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin max-upload="0B"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:3:10: max-upload=\"0B\" on <admin> accepts no WAR at all; "
                + "expected a size of at least 1B");
    }

    @Test
    void aDataSourceConnectionTimeoutUnderTheShortestPoolWaitIsRefusedAtItsAttribute() {
        // 0 would be "wait forever" to the pool, and under 250ms the pool refuses to start: the node must not get that far
        for (String timeout : new String[] {"0s", "249ms", "0ms"}) {
            assertThat(errorOfText("""
                    <cohort xmlns="urn:cohort:config:1">
                      <node name="n1"/>
                      <datasource name="jdbc/shop" url="jdbc:h2:mem:shop" connection-timeout="%s"/>
                    </cohort>""".formatted(timeout))).as(timeout)
                    .hasMessage("cohort.xml:3:55: connection-timeout=\"" + timeout + "\" on <datasource> is below 250ms, the "
                            + "shortest wait a connection pool supports; expected a duration of at least 250ms, e.g. 5s");
        }
    }

    @Test
    void aDataSourceConnectionTimeoutOfTheShortestPoolWaitIsAccepted() throws Exception {
        assertThat(TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <datasource name="jdbc/shop" url="jdbc:h2:mem:shop" connection-timeout="250ms"/>
                </cohort>""", Map.of()).dataSources().get(0).connectionTimeout()).isEqualTo(Duration.ofMillis(250));
        assertThatThrownBy(() -> new DataSourceConfig("jdbc/shop", "jdbc:h2:mem:shop", Optional.empty(), Optional.empty(), 1,
                Duration.ZERO)).hasMessage("connectionTimeout must be at least 250ms: PT0S");
    }

    @Test
    void aSerializationMaxBytesThatRefusesAlmostEveryValueIsRefusedAtItsAttribute() {
        for (String size : new String[] {"0B", "1B", "1023B", "1KB"}) {
            assertThat(errorOfText("""
                    <cohort xmlns="urn:cohort:config:1">
                      <node name="n1"/>
                      <serialization max-bytes="%s"/>
                    </cohort>""".formatted(size))).as(size)
                    .hasMessage("cohort.xml:3:18: max-bytes=\"" + size + "\" on <serialization> is below 1KiB and would refuse "
                            + "almost every replicated value (one java.math.BigDecimal serializes to about 300 bytes); "
                            + "expected a size of at least 1KiB, e.g. 1MB");
        }
        assertThatThrownBy(() -> new SerializationConfig(DataSize.parse("0B"), 1, 1, java.util.List.of()))
                .hasMessage("maxBytes must be at least 1KiB: 0B");
    }

    @Test
    void aSerializationMaxBytesOfOneKibibyteIsAccepted() throws Exception {
        assertThat(TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <serialization max-bytes="1KiB"/>
                </cohort>""", Map.of()).serialization().maxBytes().bytes()).isEqualTo(1024);
    }

    @Test
    void anAdminPortThatIsTheHttpPortOnTheSameAddressIsRefusedAtItsAttribute() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="8081"/>
                  <admin port="8081"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:3:10: port=\"8081\" on <admin> is the node's http-port on the "
                + "same address; expected another port than 8081");
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="8081" bind-addr="0.0.0.0"/>
                  <admin port="8081"/>
                </cohort>""")).as("the node listens on every address").hasMessageContaining("is the node's http-port");
    }

    @Test
    void anAdminPortThatIsTheHttpPortIsRefusedWhenTheAddressesAreTheSameWrittenDifferently() {
        // localhost is the default 127.0.0.1; the long IPv6 wildcard is every address: the node would die with "Failed to bind"
        for (String nodeAddress : new String[] {"localhost", "0:0:0:0:0:0:0:0", "[::]"}) {
            assertThat(errorOfText("""
                    <cohort xmlns="urn:cohort:config:1">
                      <node name="n1" http-port="8081" bind-addr="%s"/>
                      <admin port="8081"/>
                    </cohort>""".formatted(nodeAddress))).as(nodeAddress)
                    .hasMessageStartingWith("cohort.xml:3:10: port=\"8081\" on <admin> is the node's http-port on the same address");
        }
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="9090" bind-addr="localhost"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:19: http-port=\"9090\" on <node> is the admin endpoints' port");
    }

    @Test
    void theSamePortOnTwoDifferentAddressesIsAccepted() throws Exception {
        assertThat(TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="8081" bind-addr="127.0.0.2"/>
                  <admin port="8081" bind-addr="localhost"/>
                </cohort>""", Map.of()).admin().port()).isEqualTo(8081);
    }

    @Test
    void anHttpPortThatIsTheDefaultAdminPortIsRefusedAtTheHttpPortWhenAdminIsLeftOut() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="9090"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:19: http-port=\"9090\" on <node> is the admin "
                + "endpoints' port (<admin> left out: its default) on the same address; expected another port than 9090, "
                + "or <admin port=\"...\"/>");
    }

    /** A node and a balancer in one file, with extra attributes on {@code <node>} and {@code <balancer>} and an optional {@code <admin>}. */
    private static String nodeAndBalancer(String nodeAttributes, String admin, String balancerAttributes) {
        return """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" %s/>%s
                  <balancer %s><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""".formatted(nodeAttributes, admin.isEmpty() ? "" : "\n  " + admin, balancerAttributes);
    }

    @Test
    void aBalancerPortThatIsOneOfTheNodesPortsOnTheSameAddressIsRefusedAtTheBalancersAttribute() {
        String nodeHttpAndBalancerPort = nodeAndBalancer("http-port=\"8000\"", "", "port=\"8000\"");
        assertThat(errorOfText(nodeHttpAndBalancerPort)).hasMessage("cohort.xml:3:13: port=\"8000\" on <balancer> is the "
                + "http-port of the <node> at 2:3, on the same address; expected another port than 8000");
        assertThat(TestConfigs.balancerErrorOfText(nodeHttpAndBalancerPort)).as("refused when the balancer starts from the file too")
                .hasMessageStartingWith("cohort.xml:3:13: port=\"8000\" on <balancer> is the http-port of the <node> at 2:3");
        assertThat(errorOfText(nodeAndBalancer("http-port=\"8001\"", "", "admin-port=\"8001\"")))
                .hasMessage("cohort.xml:3:13: admin-port=\"8001\" on <balancer> is the http-port of the <node> at 2:3, on the same "
                        + "address; expected another port than 8001");
        assertThat(errorOfText(nodeAndBalancer("", "<admin port=\"8002\"/>", "port=\"8002\"")))
                .hasMessage("cohort.xml:4:13: port=\"8002\" on <balancer> is the port of the <admin> at 3:3, on the same address; "
                        + "expected another port than 8002");
        assertThat(errorOfText(nodeAndBalancer("", "<admin port=\"8003\"/>", "admin-port=\"8003\"")))
                .hasMessage("cohort.xml:4:13: admin-port=\"8003\" on <balancer> is the port of the <admin> at 3:3, on the same "
                        + "address; expected another port than 8003");
    }

    @Test
    void aBalancerPortThatIsOneOfTheNodesPortsIsRefusedWhenEitherListensOnEveryAddress() {
        assertThat(errorOfText(nodeAndBalancer("http-port=\"8000\" bind-addr=\"0.0.0.0\"", "", "port=\"8000\"")))
                .as("the node listens on every address").hasMessageStartingWith("cohort.xml:3:13: port=\"8000\" on <balancer> is "
                        + "the http-port of the <node> at 2:3");
        assertThat(errorOfText(nodeAndBalancer("", "<admin port=\"8000\" bind-addr=\"127.0.0.2\"/>",
                "port=\"8000\" bind-addr=\"::\"")))
                .as("the balancer listens on every address").hasMessageStartingWith("cohort.xml:4:13: port=\"8000\" on <balancer> is "
                        + "the port of the <admin> at 3:3");
        assertThat(errorOfText(nodeAndBalancer("http-port=\"9000\" bind-addr=\"localhost\"", "", "admin-port=\"9000\"")))
                .as("localhost is the balancer's default 127.0.0.1").hasMessageStartingWith("cohort.xml:3:13: admin-port=\"9000\"");
    }

    @Test
    void aNodePortThatIsTheBalancersDefaultPortIsRefusedAtTheNodesAttribute() {
        assertThat(errorOfText(nodeAndBalancer("http-port=\"8000\"", "", "")))
                .hasMessage("cohort.xml:2:19: http-port=\"8000\" on <node> is the port of the <balancer> at 3:3 (left out: its "
                        + "default), on the same address; expected another port than 8000, or port=\"...\" on <balancer>");
        assertThat(errorOfText(nodeAndBalancer("", "<admin port=\"9000\"/>", "")))
                .hasMessage("cohort.xml:3:10: port=\"9000\" on <admin> is the admin-port of the <balancer> at 4:3 (left out: its "
                        + "default), on the same address; expected another port than 9000, or admin-port=\"...\" on <balancer>");
    }

    @Test
    void aBalancerPortThatIsTheNodesDefaultAdminPortIsRefusedAtTheBalancersAttribute() {
        assertThat(errorOfText(nodeAndBalancer("", "", "port=\"9090\"")))
                .hasMessage("cohort.xml:3:13: port=\"9090\" on <balancer> is the node's admin port (<admin> left out: its default), "
                        + "on the same address; expected another port than 9090, or <admin port=\"...\"/>");
        assertThat(errorOfText(nodeAndBalancer("", "<admin token-env=\"T\"/>", "admin-port=\"9090\""), Map.of("T", "token")))
                .hasMessage("cohort.xml:4:13: admin-port=\"9090\" on <balancer> is the port of the <admin> at 3:3 (left out: its "
                        + "default), on the same address; expected another port than 9090, or port=\"...\" on <admin>");
    }

    @Test
    void aNodeAndABalancerOnTheSamePortAreAcceptedOnDifferentAddressesOrWhenOneOfThePortsIsNotOpened() throws Exception {
        assertThat(TestConfigs.parseFileText(nodeAndBalancer("http-port=\"8000\" bind-addr=\"127.0.0.2\"", "",
                "port=\"8000\" bind-addr=\"localhost\"")).balancer().orElseThrow().port()).isEqualTo(8000);
        assertThat(TestConfigs.parseFileText(nodeAndBalancer("http-port=\"0\"", "<admin port=\"0\"/>",
                "port=\"0\" admin-port=\"0\"")).balancer().orElseThrow().port()).as("0: a free port each").isZero();
        assertThat(TestConfigs.parseFileText(nodeAndBalancer("", "<admin enabled=\"false\" port=\"9000\"/>", ""))
                .node().orElseThrow().admin().enabled()).as("a disabled <admin> listens nowhere").isFalse();
    }

    @Test
    void databaseDataSourceMustNameADeclaredDataSource() {
        assertThat(errorOfText(cluster("    <protocol><database data-source=\"jdbc/sessions\"/></protocol>")))
                .hasMessage("cohort.xml:5:25: data-source=\"jdbc/sessions\" on <database> names no declared <datasource>; "
                        + "expected one of jdbc/shop");
    }

    @Test
    void databaseTakesDataSourceOrUrlButNotBoth() {
        assertThat(errorOfText(cluster("    <protocol><database data-source=\"jdbc/shop\" url=\"jdbc:h2:mem:x\"/></protocol>")))
                .hasMessage("cohort.xml:5:49: both data-source and url on <database>; "
                        + "expected data-source (a declared <datasource>) or url, not both");
    }

    @Test
    void databaseNeedsDataSourceOrUrl() {
        assertThat(errorOfText(cluster("    <protocol><database table-prefix=\"shop_\"/></protocol>")))
                .hasMessage("cohort.xml:5:15: missing attribute data-source or url on <database>; "
                        + "expected data-source=\"<name of a <datasource>>\" or url=\"jdbc:...\"");
    }

    @Test
    void databaseWithDataSourceTakesNoCredentialsOfItsOwn() {
        assertThat(errorOfText(cluster("    <protocol><database data-source=\"jdbc/shop\" user=\"sa\"/></protocol>")))
                .hasMessage("cohort.xml:5:49: attribute user on <database> applies only with url, not with data-source; "
                        + "expected the user and password on the <datasource> named \"jdbc/shop\"");
    }

    @Test
    void dnsDiscoveryNeedsADnsQuery() {
        assertThat(errorOfText(cluster("    <protocol><peer discovery=\"dns\"/></protocol>")))
                .hasMessage("cohort.xml:5:21: discovery=\"dns\" on <peer> needs attribute dns-query; "
                        + "expected dns-query=\"...\": the DNS name whose records list the members");
    }

    @Test
    void jdbcDiscoveryNeedsADeclaredDataSource() {
        assertThat(errorOfText(cluster("    <protocol><peer discovery=\"jdbc\"/></protocol>")))
                .hasMessage("cohort.xml:5:21: discovery=\"jdbc\" on <peer> needs attribute data-source; "
                        + "expected data-source=\"...\": the name of a declared <datasource>");
        assertThat(errorOfText(cluster("    <protocol><peer discovery=\"jdbc\" data-source=\"jdbc/ping\"/></protocol>")))
                .hasMessage("cohort.xml:5:38: data-source=\"jdbc/ping\" on <peer> names no declared <datasource>; "
                        + "expected one of jdbc/shop");
    }

    @Test
    void dnsQueryWithStaticDiscoveryIsAMistake() {
        assertThat(errorOfText(cluster("    <protocol><peer dns-query=\"_cohort._tcp\"/></protocol>")))
                .hasMessage("cohort.xml:5:21: attribute dns-query on <peer> applies only with discovery=\"dns\", not \"static\"; "
                        + "expected discovery=\"dns\" or no dns-query");
    }

    @Test
    void aMulticastIpThatIsNoMulticastAddressIsRefusedAtItsAttribute() {
        for (String ip : new String[] {"ffff", "ff", "ff::1::2", "ff01:1:2:3:4:5:6:7:8", "FF0G::1", "239.1.1.256"}) {
            assertThat(errorOfText(cluster("    <protocol><multicast ip=\"" + ip + "\"/></protocol>"))).as(ip)
                    .hasMessageStartingWith("cohort.xml:5:26: ")
                    .hasMessageContaining("ip=\"" + ip + "\" on <multicast>")
                    .hasMessageContaining("expected a multicast IP address (224.0.0.0 to 239.255.255.255, or IPv6 ff00::/8)");
        }
        // the schema's pattern lets these through; parsed, they are no address at all
        assertThat(errorOfText(cluster("    <protocol><multicast ip=\"ff::1::2\"/></protocol>")))
                .hasMessageStartingWith("cohort.xml:5:26: invalid value ip=\"ff::1::2\" on <multicast>: no multicast IP address;");
    }

    @Test
    void multicastIpsOfBothFamiliesAreAccepted() throws Exception {
        for (String ip : new String[] {"224.0.0.1", "239.255.255.255", "ff02::1", "FF15::1:2", "ff0e:0:0:0:0:0:0:101"}) {
            assertThat(((MulticastProtocol) TestConfigs.parseText(cluster("    <protocol><multicast ip=\"" + ip + "\"/></protocol>"),
                    Map.of()).cluster().orElseThrow().protocol()).ip()).as(ip).isEqualTo(ip);
        }
    }

    @Test
    void stackFileMustExist() {
        assertThat(errorOfText(cluster("    <protocol><multicast stack=\"udp-custom.xml\"/></protocol>")))
                .hasMessage("cohort.xml:5:26: JGroups stack file /etc/cohort/udp-custom.xml (stack on <multicast>) does not exist "
                        + "or is not readable; expected a readable JGroups stack XML file");
    }

    @Test
    void duplicateDataSourceNamesPointAtTheSecondAndNameTheFirst() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <datasource name="jdbc/shop" url="jdbc:h2:mem:a"/>
                  <datasource name="jdbc/shop" url="jdbc:h2:mem:b"/>
                </cohort>""")).hasMessage("cohort.xml:4:15: duplicate data source name \"jdbc/shop\"; "
                + "expected a name not used by the <datasource> at 3:3");
    }

    @Test
    void securityNeedsSecretEnvOrSecretFile() {
        assertThat(errorOfText(cluster("    <protocol><peer/></protocol>\n    <security encrypt=\"true\"/>")))
                .hasMessage("cohort.xml:6:5: missing attribute secret-env or secret-file on <security>; expected "
                        + "secret-env=\"VARIABLE\" (an environment variable) or secret-file=\"path\" (a file) holding the secret");
    }

    @Test
    void tlsIsForThePeerProtocolAndAlwaysEncrypts() throws Exception {
        Map<String, String> env = Map.of("S", "k7Qw2ZrT9pLx4VbN8sYd");
        assertThat(errorOfText(cluster("    <protocol><multicast ip=\"228.8.8.8\"/></protocol>\n    <security secret-env=\"S\" tls=\"true\"/>"), env))
                .hasMessage("cohort.xml:6:30: tls=\"true\" on <security> needs the <peer> protocol: members of a multicast group "
                        + "send UDP datagrams, which TLS cannot carry; expected tls=\"false\", or <peer>");
        assertThat(errorOfText(cluster("    <protocol><peer/></protocol>\n    <security secret-env=\"S\" tls=\"true\" encrypt=\"false\"/>"), env))
                .hasMessage("cohort.xml:6:41: encrypt=\"false\" on <security> contradicts tls=\"true\": TLS always encrypts; "
                        + "expected no encrypt attribute (or encrypt=\"true\") with tls=\"true\"");
        SecurityConfig security = TestConfigs.parseText(cluster("    <protocol><peer/></protocol>\n    <security secret-env=\"S\" tls=\"true\"/>"), env)
                .cluster().orElseThrow().security().orElseThrow();
        assertThat(security.tls()).isTrue();
        assertThat(security.encrypt()).isTrue();
    }

    @Test
    void securityWithTheDatabaseProtocolIsRefusedAtItsElement() {
        // nothing would use the secret: the members talk only to the database, whose connection the JDBC URL secures
        for (String attributes : new String[] {"", " tls=\"true\"", " encrypt=\"false\""}) {
            assertThat(errorOfText(cluster("    <protocol><database data-source=\"jdbc/shop\"/></protocol>\n    <security secret-env=\"S\""
                    + attributes + "/>"), Map.of("S", "k7Qw2ZrT9pLx4VbN8sYd")))
                    .hasMessageStartingWith("cohort.xml:6:5: <security> has no effect with the <database> protocol")
                    .hasMessageContaining("sslmode");
        }
    }

    @Test
    void peerTrafficIsEncryptedOverTlsUnlessTlsIsTurnedOffOrNothingIsEncrypted() throws Exception {
        Map<String, String> env = Map.of("S", "k7Qw2ZrT9pLx4VbN8sYd");
        assertThat(security("<peer/>", "", env).tls()).as("peer, encrypted by default").isTrue();
        assertThat(security("<peer/>", " tls=\"false\"", env)).as("peer, SYM_ENCRYPT")
                .extracting(SecurityConfig::tls, SecurityConfig::encrypt).containsExactly(false, true);
        assertThat(security("<peer/>", " encrypt=\"false\"", env)).as("peer, authenticated only")
                .extracting(SecurityConfig::tls, SecurityConfig::encrypt).containsExactly(false, false);
        assertThat(security("<multicast ip=\"228.8.8.8\"/>", "", env)).as("multicast: UDP, no TLS")
                .extracting(SecurityConfig::tls, SecurityConfig::encrypt).containsExactly(false, true);
    }

    private SecurityConfig security(String protocol, String attributes, Map<String, String> env) throws Exception {
        return TestConfigs.parseText(cluster("    <protocol>" + protocol + "</protocol>\n    <security secret-env=\"S\"" + attributes
                + "/>"), env).cluster().orElseThrow().security().orElseThrow();
    }

    @Test
    void unsetSecretVariableIsNamed() {
        assertThat(errorOfText(cluster("    <protocol><peer/></protocol>\n    <security secret-env=\"COHORT_CLUSTER_SECRET\"/>")))
                .hasMessage("cohort.xml:6:15: environment variable COHORT_CLUSTER_SECRET (secret-env on <security>) is not set; "
                        + "expected the variable to hold the secret");
        assertThat(errorOfText(cluster("    <protocol><peer/></protocol>\n    <security secret-env=\"COHORT_CLUSTER_SECRET\"/>"),
                Map.of("COHORT_CLUSTER_SECRET", ""))).hasMessageContaining("COHORT_CLUSTER_SECRET (secret-env on <security>) is empty");
    }

    @Test
    void unreadableSecretFileIsNamed() {
        assertThat(errorOfText(cluster("    <protocol><peer/></protocol>\n    <security secret-file=\"secret\"/>")))
                .hasMessage("cohort.xml:6:15: cannot read secret file /etc/cohort/secret (secret-file on <security>): "
                        + "NoSuchFileException; expected a readable file holding the secret");
    }

    @Test
    void tokenFromBothEnvironmentAndFileIsAmbiguous() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin token-env="TOKEN" token-file="token"/>
                </cohort>""", Map.of("TOKEN", "t"))).hasMessage("cohort.xml:3:28: both token-env and token-file on <admin>; "
                + "expected only one of them");
    }
}
