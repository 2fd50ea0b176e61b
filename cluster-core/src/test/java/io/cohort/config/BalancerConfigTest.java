package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The {@code <balancer>} element: a file for a balancer alone or beside a node, its defaults and its rules. */
class BalancerConfigTest {

    private static final String TWO_MEMBERS = """
            <cohort xmlns="urn:cohort:config:1">
              <balancer host="blade1" policy="roundrobin:weighted" connect-timeout="500ms" max-request-body="1MiB"
                        trusted-proxies="10.0.0.2 2001:db8::/32">
                <health interval="250ms" fall="2" rise="4"/>
                <balancer-member name="n1" host="blade1" url="http://127.0.0.1:8081" health-url="http://127.0.0.1:9081/health"/>
                <balancer-member name="n2" host="blade2" url="http://127.0.0.1:8082" weight="5"/>
                <balancer-member name="n3" host="blade2" url="http://127.0.0.1:8083/"/>
                <weight host="blade2" value="3"/>
              </balancer>
            </cohort>""";

    @Test
    void aFileMayDescribeABalancerAlone() throws Exception {
        BalancerConfig balancer = TestConfigs.parseBalancerText(TWO_MEMBERS);

        assertThat(balancer.policy()).isEqualTo(Policy.ROUND_ROBIN_WEIGHTED);
        assertThat(balancer.host()).isEqualTo("blade1");
        assertThat(balancer.connectTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(balancer.maxRequestBody()).isEqualTo(DataSize.parse("1MiB"));
        assertThat(balancer.health()).isEqualTo(new HealthCheckConfig("/health", Duration.ofMillis(250), Duration.ofSeconds(1), 2, 4));
        assertThat(balancer.members()).extracting(BalancerMember::name).containsExactly("n1", "n2", "n3");
        assertThat(balancer.trustedProxies()).containsExactly("10.0.0.2", "2001:db8::/32");
        assertThat(TestConfigs.parseFileText(TWO_MEMBERS).node()).isEmpty();
    }

    @Test
    void memberWeightWinsOverHostWeightWhichWinsOverOne() throws Exception {
        BalancerConfig balancer = TestConfigs.parseBalancerText(TWO_MEMBERS);

        assertThat(balancer.members()).extracting(BalancerMember::weight).containsExactly(1, 5, 3);
        assertThat(balancer.hostWeights()).isEqualTo(Map.of("blade2", 3));
    }

    @Test
    void healthUrlDefaultsToTheHealthPathAtTheMembersAuthority() throws Exception {
        BalancerConfig balancer = TestConfigs.parseBalancerText(TWO_MEMBERS);

        assertThat(balancer.member("n1").orElseThrow().healthUrl()).isEqualTo(URI.create("http://127.0.0.1:9081/health"));
        assertThat(balancer.member("n3").orElseThrow().healthUrl()).isEqualTo(URI.create("http://127.0.0.1:8083/health"));
        assertThat(balancer.member("n3").orElseThrow().url()).isEqualTo(URI.create("http://127.0.0.1:8083/"));
    }

    @Test
    void aFileMayDescribeANodeAndABalancer() throws Exception {
        ConfigFile file = TestConfigs.parseFileText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <balancer><balancer-member name="n1" url="http://127.0.0.1:8080"/></balancer>
                </cohort>""");

        assertThat(file.node().orElseThrow().node().name()).isEqualTo("n1");
        assertThat(file.balancer().orElseThrow().members()).hasSize(1);
    }

    @Test
    void aBalancerOnlyFileIsNoNodeConfiguration() {
        assertThat(TestConfigs.errorOfText(TWO_MEMBERS)).hasMessage("cohort.xml:1:1: the file describes a <balancer> but no <node>; "
                + "expected <node name=\"...\"/> as the first element of <cohort> to start a node");
    }

    @Test
    void aNodeOnlyFileIsNoBalancerConfiguration() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:1:1: the file describes no <balancer>; expected ");
    }

    @Test
    void aFileWithNeitherNodeNorBalancerIsRefused() {
        assertThat(TestConfigs.errorOfText("<cohort xmlns=\"urn:cohort:config:1\">\n</cohort>"))
                .hasMessage("cohort.xml:2:1: missing a required element in <cohort>; expected one of <node>, <balancer>");
    }

    @Test
    void nodeElementsAreNotAllowedBesideALoneBalancer() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer><balancer-member name="n1" url="http://127.0.0.1:8080"/></balancer>
                  <cluster name="c"><protocol><peer/></protocol></cluster>
                </cohort>""")).hasMessageStartingWith("cohort.xml:3:3: element <cluster> is not allowed here in <cohort>");
    }

    @Test
    void aBalancerNeedsAMember() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer policy="metric"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:")
                .hasMessageContaining("missing required element <balancer-member> in <balancer>");
    }

    @Test
    void duplicateMemberNamesAreRefusedAtTheSecond() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                    <balancer-member name="n1" url="http://127.0.0.1:8082"/>
                  </balancer>
                </cohort>""")).hasMessage("cohort.xml:4:22: duplicate member name \"n1\"; "
                + "expected a name not used by the <balancer-member> at 3:5");
    }

    @Test
    void aWeightForAHostWithoutMembersIsRefused() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <balancer-member name="n1" host="a" url="http://127.0.0.1:8081"/>
                    <weight host="b" value="2"/>
                  </balancer>
                </cohort>""")).hasMessage("cohort.xml:4:13: host=\"b\" on <weight> is the host of no <balancer-member>; expected one of a");
    }

    @Test
    void aWeightAboveTenThousandIsRefused() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer policy="roundrobin:weighted">
                    <balancer-member name="n1" host="a" url="http://127.0.0.1:8081" weight="2147483647"/>
                  </balancer>
                </cohort>""")).hasMessage("cohort.xml:3:69: invalid value weight=\"2147483647\" on <balancer-member>; "
                + "expected a routing weight: an integer from 1 to 10000");
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer policy="roundrobin:weighted">
                    <balancer-member name="n1" host="a" url="http://127.0.0.1:8081"/>
                    <weight host="a" value="10001"/>
                  </balancer>
                </cohort>""")).hasMessage("cohort.xml:4:22: invalid value value=\"10001\" on <weight>; "
                + "expected a routing weight: an integer from 1 to 10000");
        assertThatThrownBy(() -> new BalancerMember("n1", "a", URI.create("http://127.0.0.1:8081"),
                URI.create("http://127.0.0.1:8081/health"), 10_001))
                .hasMessage("weight must be from 1 to 10000: 10001");
    }

    @Test
    void anUnknownPolicyIsRefusedWithTheEightNames() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer policy="leastconn"><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""")).hasMessage("cohort.xml:2:13: invalid value policy=\"leastconn\" on <balancer>; expected one of random, "
                + "roundrobin, random:local, roundrobin:local, random:weighted, roundrobin:weighted, metric, metric:local");
    }

    @Test
    void aMemberUrlMustBeHttp() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer><balancer-member name="n1" url="ftp://127.0.0.1:8081"/></balancer>
                </cohort>""")).hasMessageContaining("invalid value url=\"ftp://127.0.0.1:8081\" on <balancer-member>; expected an http:// or "
                + "https:// URL with a host");
    }

    private static String member(String attributes) {
        return """
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <balancer-member name="n1" %s/>
                  </balancer>
                </cohort>""".formatted(attributes);
    }

    @Test
    void aMemberUrlWithoutAHostIsRefusedAtItsAttribute() {
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://:8081\"")))
                .hasMessage("cohort.xml:3:32: url=\"http://:8081\" on <balancer-member> names no host; "
                        + "expected an http:// or https:// URL with a host, e.g. http://127.0.0.1:8081");
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://127.0.0.1:8081\" health-url=\"http://:9081/health\"")))
                .hasMessage("cohort.xml:3:60: health-url=\"http://:9081/health\" on <balancer-member> names no host; "
                        + "expected an http:// or https:// URL with a host, e.g. http://127.0.0.1:9081/health");
    }

    @Test
    void aMemberUrlWithAPortOutsideOneTo65535IsRefusedAtItsAttribute() {
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://127.0.0.1:99999\"")))
                .hasMessage("cohort.xml:3:32: url=\"http://127.0.0.1:99999\" on <balancer-member> has port 99999; "
                        + "expected a port from 1 to 65535, or none for the scheme's default");
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://127.0.0.1:0\"")))
                .hasMessageStartingWith("cohort.xml:3:32: url=\"http://127.0.0.1:0\" on <balancer-member> has port 0;");
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://127.0.0.1:8081\" health-url=\"http://127.0.0.1:65536/health\"")))
                .hasMessageStartingWith("cohort.xml:3:60: health-url=\"http://127.0.0.1:65536/health\" on <balancer-member> "
                        + "has port 65536;");
    }

    @Test
    void aMemberHostWithAnUnderscoreIsRefusedAtItsAttributeBecauseNoUrlParserTakesIt() {
        // java.net.URI finds no host in http://node_1:8080 (a container name often has one): the member would never be reached
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://node_1:8080\"")))
                .hasMessageStartingWith("cohort.xml:3:32: invalid value url=\"http://node_1:8080\" on <balancer-member>; ")
                .hasMessageContaining("no '_'");
        assertThat(TestConfigs.balancerErrorOfText(member("url=\"http://127.0.0.1:8081\" health-url=\"http://node_1:9081/health\"")))
                .hasMessageStartingWith("cohort.xml:3:60: invalid value health-url=\"http://node_1:9081/health\" on <balancer-member>; ")
                .hasMessageContaining("no '_'");
    }

    @Test
    void memberUrlsWithHostNamesIpv6AndTheExtremePortsAreAccepted() throws Exception {
        BalancerConfig config = TestConfigs.parseBalancerText(member("url=\"https://node-1.example:1\" "
                + "health-url=\"http://[::1]:65535/health\""));
        assertThat(config.members().get(0).url()).isEqualTo(URI.create("https://node-1.example:1"));
        assertThat(config.members().get(0).healthUrl()).isEqualTo(URI.create("http://[::1]:65535/health"));
        assertThat(TestConfigs.parseBalancerText(member("url=\"http://node-1\"")).members().get(0).healthUrl())
                .isEqualTo(URI.create("http://node-1/health"));
    }

    @Test
    void theBalancerPortCannotBeItsAdminPortOnTheSameAddress() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer port="8000" admin-port="8000"><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""")).hasMessage("cohort.xml:2:25: admin-port=\"8000\" on <balancer> is the balancer's port on the same "
                + "address; expected another port than 8000");
        // admin-port left out: its default 9000, with the wildcard written the long way
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer port="9000" bind-addr="0:0:0:0:0:0:0:0"><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""")).hasMessage("cohort.xml:2:13: port=\"9000\" on <balancer> is the admin port (admin-port left out: "
                + "its default) on the same address; expected another port than 9000, or admin-port=\"...\"");
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer port="8000" admin-port="8000" admin-bind-addr="localhost">
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:25: admin-port=\"8000\" on <balancer> is the balancer's port");
    }

    @Test
    void theBalancerMayUseOnePortOnTwoAddressesOrPickFreePorts() throws Exception {
        BalancerConfig config = TestConfigs.parseBalancerText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer port="8000" admin-port="8000" admin-bind-addr="127.0.0.2">
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""");
        assertThat(config.adminPort()).isEqualTo(config.port());
        assertThat(TestConfigs.parseBalancerText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer port="0" admin-port="0"><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""").port()).isZero();
    }

    @Test
    void theBackupCookieCannotBeTheSessionCookie() {
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer session-cookie="COHORT_BACKUP"><balancer-member name="n1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:13: session-cookie=\"COHORT_BACKUP\" on <balancer> is the cookie");
    }

    @Test
    void clientLimitsAreReadAndCheckedAtTheirLine() throws Exception {
        BalancerConfig config = TestConfigs.parseBalancerText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <client-limits header-timeout="3s" max-connections="500" max-connections-per-address="20"/>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""");
        assertThat(config.clientLimits()).isEqualTo(new ClientLimitsConfig(Duration.ofSeconds(3), 500, OptionalInt.of(20),
                Optional.empty()));

        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <client-limits max-connections-per-address="0"/>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""")).hasMessageStartingWith("cohort.xml:3:20: invalid value max-connections-per-address=\"0\" on <client-limits>; "
                + "expected an integer ≥ 1, or unlimited");
        assertThat(TestConfigs.balancerErrorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <client-limits header-timeout="0s"/>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""")).hasMessageStartingWith("cohort.xml:3:20: invalid value header-timeout=\"0s\" on <client-limits>");
    }

    @Test
    void memberLimitsAreReadFromTheBalancersAttributes() throws Exception {
        BalancerConfig config = TestConfigs.parseBalancerText(withBalancerAttributes(
                "max-connections=\"8\" max-queued-per-member=\"16\" max-member-header-size=\"128KiB\""));
        assertThat(config.memberLimits()).isEqualTo(new MemberLimitsConfig(8, 16, DataSize.parse("128KiB")));

        assertThat(TestConfigs.parseBalancerText(withBalancerAttributes("max-queued-per-member=\"1\" max-member-header-size=\"1KiB\""))
                .memberLimits()).as("the smallest").isEqualTo(new MemberLimitsConfig(64, 1, DataSize.parse("1KiB")));
        assertThat(TestConfigs.parseBalancerText(withBalancerAttributes("max-member-header-size=\"1048576B\"")).memberLimits().maxHeaderSize())
                .as("the largest head").isEqualTo(DataSize.parse("1MiB"));
    }

    @Test
    void memberLimitsOutOfRangeAreRefusedAtTheirAttribute() {
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-queued-per-member=\"0\"")))
                .hasMessage("cohort.xml:2:13: invalid value max-queued-per-member=\"0\" on <balancer>; expected an integer ≥ 1");
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-queued-per-member=\"-5\"")))
                .hasMessageStartingWith("cohort.xml:2:13: invalid value max-queued-per-member=\"-5\" on <balancer>");
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-queued-per-member=\"2147483648\"")))
                .hasMessageStartingWith("cohort.xml:2:13: invalid value max-queued-per-member=\"2147483648\" on <balancer>");
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-member-header-size=\"1023B\"")))
                .hasMessage("cohort.xml:2:13: max-member-header-size=\"1023B\" on <balancer> is out of range; expected a size from 1KiB to 1MiB");
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-member-header-size=\"2MiB\"")))
                .hasMessage("cohort.xml:2:13: max-member-header-size=\"2MiB\" on <balancer> is out of range; expected a size from 1KiB to 1MiB");
        assertThat(TestConfigs.balancerErrorOfText(withBalancerAttributes("max-member-header-size=\"64k\"")))
                .hasMessageStartingWith("cohort.xml:2:13: invalid value max-member-header-size=\"64k\" on <balancer>");
        assertThatThrownBy(() -> new MemberLimitsConfig(64, 0, DataSize.parse("64KiB"))).hasMessage("maxQueued must be at least 1: 0");
        assertThatThrownBy(() -> new MemberLimitsConfig(64, 1024, DataSize.parse("2MiB")))
                .hasMessage("maxHeaderSize must be from 1KiB to 1MiB: 2MiB");
    }

    private static String withBalancerAttributes(String attributes) {
        return """
                <cohort xmlns="urn:cohort:config:1">
                  <balancer %s>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""".formatted(attributes);
    }

    @Test
    void aRequestRateIsReadWithItsBurstWhichDefaultsToOneSecondsWorth() throws Exception {
        assertThat(clientLimits("<client-limits max-request-rate=\"50\" request-burst=\"120\"/>").requestRate())
                .contains(new ClientLimitsConfig.RequestRate(50, 120));
        assertThat(clientLimits("<client-limits max-request-rate=\"50\"/>").requestRate())
                .contains(new ClientLimitsConfig.RequestRate(50, 50));
        assertThat(clientLimits("<client-limits max-request-rate=\"unlimited\"/>").requestRate()).isEmpty();

        assertThat(TestConfigs.balancerErrorOfText(withClientLimits("<client-limits max-request-rate=\"0\"/>")))
                .hasMessageStartingWith("cohort.xml:3:20: invalid value max-request-rate=\"0\" on <client-limits>; "
                        + "expected requests per second: an integer from 1 to 999999999, or unlimited");
        assertThat(TestConfigs.balancerErrorOfText(withClientLimits("<client-limits max-request-rate=\"10\" request-burst=\"0\"/>")))
                .hasMessageStartingWith("cohort.xml:3:42: invalid value request-burst=\"0\" on <client-limits>");
        assertThat(TestConfigs.balancerErrorOfText(withClientLimits("<client-limits request-burst=\"20\"/>")))
                .hasMessageStartingWith("cohort.xml:3:20: request-burst=\"20\" on <client-limits> has no rate to burst above");
    }

    private static ClientLimitsConfig clientLimits(String element) throws Exception {
        return TestConfigs.parseBalancerText(withClientLimits(element)).clientLimits();
    }

    private static String withClientLimits(String element) {
        return """
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    %s
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>""".formatted(element);
    }

    @Test
    void policyNamesRoundTrip() {
        for (Policy policy : Policy.values()) {
            assertThat(Policy.fromXml(policy.xmlName())).isEqualTo(policy);
        }
        assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> Policy.fromXml("roundRobin"));
    }
}
