package io.cohort.config;

import static io.cohort.config.TestConfigs.errorOfText;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
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
    void anHttpPortThatIsTheDefaultAdminPortIsRefusedAtTheHttpPortWhenAdminIsLeftOut() {
        assertThat(errorOfText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1" http-port="9090"/>
                </cohort>""")).hasMessageStartingWith("cohort.xml:2:19: http-port=\"9090\" on <node> is the admin "
                + "endpoints' port (<admin> left out: its default) on the same address; expected another port than 9090, "
                + "or <admin port=\"...\"/>");
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
