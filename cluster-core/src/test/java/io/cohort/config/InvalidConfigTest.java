package io.cohort.config;

import static io.cohort.config.TestConfigs.errorOf;
import static io.cohort.config.TestConfigs.errorOfText;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each refused file gives one message: file:line:column, what is wrong, what was expected. */
class InvalidConfigTest {

    @Test
    void malformedXmlPointsAtTheUnclosedElement() {
        ConfigException e = errorOf("malformed.xml");

        assertThat(e).hasMessage("malformed.xml:2:3: malformed XML: element <node> is not closed; "
                + "expected </node> before the end tag at 4:1");
        assertThat(e.systemId()).isEqualTo("malformed.xml");
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(3);
    }

    @Test
    void unknownElementNamesFileLineColumnAndExpectedElements() {
        assertThat(errorOf("unknown-element.xml")).hasMessage("unknown-element.xml:5:5: unknown element <replication-mode> in <cluster>; "
                + "expected one of <synchronous-replication>, <asynchronous-replication>, <protocol>");
    }

    @Test
    void badValuePointsAtTheAttributeAndDescribesItsType() {
        assertThat(errorOf("bad-value.xml"))
                .hasMessage("bad-value.xml:3:24: invalid value write-quota=\"abc\" on <cluster>; expected an integer ≥ 1");
    }

    @Test
    void missingRequiredAttributePointsAtTheElement() {
        assertThat(errorOf("missing-attribute.xml")).hasMessage("missing-attribute.xml:2:3: missing required attribute name on <node>; "
                + "expected attribute name: a name of letters, digits, '-' and '_' (no '.': the node name is the session route suffix)");
    }

    @Test
    void badUnitPointsAtTheAttributeEvenOnALaterLineOfTheTag() {
        ConfigException e = errorOf("bad-unit.xml");

        assertThat(e).hasMessage("bad-unit.xml:4:12: invalid value cache-miss-delay=\"10 parsecs\" on <cluster>; "
                + "expected a duration with unit ms, s, m or h (e.g. 500ms, 2s)");
        assertThat(e.problem()).isEqualTo("invalid value cache-miss-delay=\"10 parsecs\" on <cluster>");
        assertThat(e.expected()).isEqualTo("a duration with unit ms, s, m or h (e.g. 500ms, 2s)");
    }

    @Test
    void aTimeoutOfZeroIsRefusedWhereOnlyAPositiveDurationMakesSense() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" idle-timeout="0s"/>
                </cohort>"""))
                .hasMessage("cohort.xml:2:19: invalid value idle-timeout=\"0s\" on <node>; "
                        + "expected a duration above zero with unit ms, s, m or h (e.g. 500ms, 2s)");
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer connect-timeout="000ms">
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                  </balancer>
                </cohort>"""))
                .hasMessageStartingWith("cohort.xml:2:13: invalid value connect-timeout=\"000ms\" on <balancer>; expected a duration above zero");
        // a synchronous write with no time at all could never be made (the database protocol refused every one)
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><synchronous-replication timeout="0s"/></cluster>
                </cohort>"""))
                .hasMessageStartingWith("cohort.xml:3:46: invalid value timeout=\"0s\" on <synchronous-replication>; "
                        + "expected a duration above zero");
    }

    @Test
    void trustedProxiesMustBeAddressLiteralsOrRangesNeverHostNames() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" trusted-proxies="10.0.0.5 balancer.example.com"/>
                </cohort>"""))
                .hasMessageStartingWith("cohort.xml:2:19: invalid value trusted-proxies=\"10.0.0.5 balancer.example.com\" on <node>; "
                        + "expected IP addresses and CIDR ranges separated by spaces");
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" trusted-proxies="10.0.0.300"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:19: invalid value trusted-proxies=\"10.0.0.300\"");
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" trusted-proxies="127.0.0.0/8 10.1.2.3/16"/>
                </cohort>"""))
                .hasMessageStartingWith("cohort.xml:2:19: invalid address or range \"10.1.2.3/16\"")
                .hasMessageContaining("expected IP addresses and CIDR ranges whose host bits are zero");
    }

    @Test
    void sizeWithoutAKnownUnitIsRefused() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <serialization max-bytes="1 MB"/>
                </cohort>""")).hasMessage("cohort.xml:3:18: invalid value max-bytes=\"1 MB\" on <serialization>; "
                + "expected a size with unit B, KB, MB, GB, KiB, MiB or GiB (e.g. 512KiB, 1MB; KB = 1000 bytes, KiB = 1024 bytes)");
    }

    @Test
    void doctypeIsRefusedSoExternalEntitiesAreNeverRead() {
        ConfigException e = errorOf("xxe.xml");

        assertThat(e).hasMessage("xxe.xml:2:1: a DOCTYPE declaration is not allowed (DTDs and external entities are disabled); "
                + "expected <cohort xmlns=\"urn:cohort:config:1\"> without a DOCTYPE");
        assertThat(e.getMessage()).doesNotContain("root:");
    }

    @Test
    void messagesAreTheSameWhateverTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            assertThat(errorOf("bad-value.xml"))
                    .hasMessage("bad-value.xml:3:24: invalid value write-quota=\"abc\" on <cluster>; expected an integer ≥ 1");
            assertThat(errorOf("malformed.xml")).hasMessageContaining("malformed XML: element <node> is not closed");
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void unknownAttributeListsTheAttributesOfTheElement() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" colour="blue"/>
                </cohort>""")).hasMessage("cohort.xml:2:19: unknown attribute colour on <node>; expected one of name, host, "
                + "bind-addr, http-port, webapps, work-dir, max-threads, graceful-stop, scan-interval, idle-timeout, trusted-proxies");
    }

    @Test
    void rootWithoutTheNamespaceIsRefused() {
        assertThat(errorOfText("""
                <cohort>
                  <node name="n1"/>
                </cohort>""")).hasMessage("cohort.xml:1:1: root element <cohort> is not in namespace urn:cohort:config:1; "
                + "expected <cohort xmlns=\"urn:cohort:config:1\">");
    }

    @Test
    void nodeNameWithADotIsRefusedBecauseItIsTheRouteSuffix() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="shop.n1"/>
                </cohort>""")).hasMessage("cohort.xml:2:9: invalid value name=\"shop.n1\" on <node>; "
                + "expected a name of letters, digits, '-' and '_' (no '.': the node name is the session route suffix)");
    }

    @Test
    void unknownTriggerListsTheTriggers() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><replication-policy trigger="onCommit"/><protocol><peer/></protocol></cluster>
                </cohort>""")).hasMessage("cohort.xml:3:41: invalid value trigger=\"onCommit\" on <replication-policy>; "
                + "expected one of onSetAttribute, onRequestEnd, onShutdown");
    }

    @Test
    void missingProtocolIsNamed() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c">
                  </cluster>
                </cohort>""")).hasMessage("cohort.xml:4:3: missing required element <protocol> in <cluster>; expected one of "
                + "<replication-policy>, <synchronous-replication>, <asynchronous-replication>, <protocol>");
    }

    @Test
    void emptyProtocolAsksForOneTransport() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><protocol/></cluster>
                </cohort>""")).hasMessage("cohort.xml:3:21: missing a required element in <protocol>; "
                + "expected one of <peer>, <multicast>, <database>");
    }

    @Test
    void elementsOutOfOrderAreRefused() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <admin/>
                  <node name="n1"/>
                </cohort>""")).hasMessage("cohort.xml:2:3: element <admin> is not allowed here in <cohort>; "
                + "expected one of <node>, <balancer>");
    }

    @Test
    void secondClusterIsRefused() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><protocol><peer/></protocol></cluster>
                  <cluster name="d"><protocol><peer/></protocol></cluster>
                </cohort>""")).hasMessage("cohort.xml:4:3: element <cluster> is not allowed here in <cohort>; "
                + "expected <balancer>");
    }

    @Test
    void textInsideAnElementPointsAtTheText() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c">
                    oops
                    <protocol><peer/></protocol>
                  </cluster>
                </cohort>""")).hasMessage("cohort.xml:4:5: unexpected text in <cluster>; expected only elements and comments in <cluster>");
    }

    @Test
    void childOfAnAttributeOnlyElementPointsAtTheChild() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"><webapps>apps</webapps></node>
                </cohort>""")).hasMessage("cohort.xml:2:19: unknown element <webapps> in <node>; expected <node .../> with attributes only");
    }

    @Test
    void valueTooLargeForItsJavaTypeIsReportedLikeASchemaError() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" graceful-stop="9999999999999999h"/>
                </cohort>""")).hasMessage("cohort.xml:2:19: invalid value graceful-stop=\"9999999999999999h\" on <node>; "
                + "expected a duration with unit ms, s, m or h (e.g. 500ms, 2s)");
    }

    @Test
    void emptyFileIsMalformed() {
        assertThat(errorOfText("")).hasMessage("cohort.xml:1:1: malformed XML: premature end of file; expected well-formed XML");
    }

    @Test
    void unreadableFileIsReportedAtItsStart(@TempDir Path dir) {
        Path missing = dir.resolve("missing.xml");

        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(missing));

        assertThat(e.getMessage()).startsWith(missing + ":1:1: cannot read the file (NoSuchFileException").endsWith("; expected a readable XML file");
    }

    @Test
    void configCheckPrintsTheMessageAndExitsNonZero(@TempDir Path dir) throws Exception {
        Path bad = dir.resolve("cohort.xml");
        Files.writeString(bad, TestConfigs.resourceText("bad-value.xml"));
        Path good = dir.resolve("good.xml");
        Files.writeString(good, TestConfigs.resourceText("minimal.xml"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int invalid = ConfigCheck.run(new String[] {good.toString(), bad.toString()}, print(out), print(err));

        assertThat(invalid).isEqualTo(ConfigCheck.INVALID);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(good + ": OK" + System.lineSeparator());
        assertThat(err.toString(StandardCharsets.UTF_8))
                .isEqualTo(bad + ":3:24: invalid value write-quota=\"abc\" on <cluster>; expected an integer ≥ 1" + System.lineSeparator());
        assertThat(ConfigCheck.run(new String[] {good.toString()}, print(out), print(err))).isEqualTo(ConfigCheck.OK);
        assertThat(ConfigCheck.run(new String[0], print(out), print(err))).isEqualTo(ConfigCheck.USAGE);
    }

    @Test
    void configCheckRefusesAWebOverrideThatDoesNotExist(@TempDir Path dir) {
        Path missing = dir.resolve("missing.xml");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int status = ConfigCheck.run(new String[] {"--web", missing.toString()}, print(out), print(err));

        assertThat(status).isEqualTo(ConfigCheck.INVALID);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith(missing + ":1:1: cannot read the file (NoSuchFileException");
    }

    @Test
    void configCheckTreatsAWebOptionWithoutAFileAsAUsageErrorAndChecksNothing(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.xml");
        Files.writeString(good, TestConfigs.resourceText("minimal.xml"));
        Path web = dir.resolve("cohort-web.xml");
        Files.writeString(web, TestConfigs.resourceText("cohort-web.xml"));
        String[][] wrong = {{"--web"}, {good.toString(), "--web"}, {"--web", "--web", web.toString()},
            {"--verbose", good.toString()}};
        for (String[] args : wrong) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();

            assertThat(ConfigCheck.run(args, print(out), print(err))).as(String.join(" ", args)).isEqualTo(ConfigCheck.USAGE);
            assertThat(out.toString(StandardCharsets.UTF_8)).as("nothing checked").isEmpty();
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage: ConfigCheck");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertThat(ConfigCheck.run(new String[] {good.toString(), "--web", web.toString()}, print(out), print(new ByteArrayOutputStream())))
                .isEqualTo(ConfigCheck.OK);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(good + ": OK" + System.lineSeparator() + web + ": OK"
                + System.lineSeparator());
    }

    private static PrintStream print(ByteArrayOutputStream out) {
        return new PrintStream(out, true, StandardCharsets.UTF_8);
    }
}
