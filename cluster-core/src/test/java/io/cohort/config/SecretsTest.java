package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Secrets come from the environment or from files and never show in toString or messages. */
class SecretsTest {

    private static final List<String> SECRETS = List.of("admin-token-1", "db-secret-1", "db-secret-2", "cluster-secret-1");

    @TempDir
    Path dir;

    @Test
    void secretsAreReadFromEnvironmentAndFilesWithoutTrailingNewline() throws Exception {
        CohortConfig config = parseFull();

        assertThat(config.admin().token().orElseThrow().reveal()).isEqualTo("admin-token-1");
        assertThat(config.admin().token().orElseThrow().origin()).isEqualTo("file " + dir.resolve("secrets/admin-token"));
        assertThat(config.dataSource("jdbc/jpetstore").orElseThrow().password().orElseThrow().reveal()).isEqualTo("db-secret-1");
        assertThat(config.dataSource("jdbc/jpetstore").orElseThrow().password().orElseThrow().origin())
                .isEqualTo("environment variable DB_PASSWORD");
        assertThat(config.dataSource("jdbc/sessions").orElseThrow().password().orElseThrow().reveal()).isEqualTo("db-secret-2");
        assertThat(config.cluster().orElseThrow().security().orElseThrow().secret().reveal()).isEqualTo("cluster-secret-1");
    }

    @Test
    void noConfigRecordPrintsASecret() throws Exception {
        CohortConfig config = parseFull();
        ClusterConfig cluster = config.cluster().orElseThrow();
        List<Object> records = List.of(config, config.node(), config.admin(), config.dataSources().get(0), config.dataSources().get(1),
                config.serialization(), cluster, cluster.replication(), cluster.protocol(), cluster.security().orElseThrow(),
                cluster.security().orElseThrow().secret());

        for (Object record : records) {
            assertThat(record.toString()).as(record.getClass().getSimpleName()).doesNotContain(SECRETS);
        }
        assertThat(cluster.security().orElseThrow().toString()).contains("Secret[****]");
    }

    @Test
    void inlineDatabasePasswordDoesNotPrintEither() throws Exception {
        CohortConfig config = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><protocol><database url="jdbc:h2:mem:x" password-env="PGPASSWORD"/></protocol></cluster>
                </cohort>""", Map.of("PGPASSWORD", "pg-secret-1"));

        assertThat(config.toString()).doesNotContain("pg-secret-1");
        assertThat(config.cluster().orElseThrow().protocol().toString()).doesNotContain("pg-secret-1").contains("Secret[****]");
    }

    @Test
    void aSecretFromTheEnvironmentLosesItsTrailingNewlineAsOneFromAFileDoes() throws Exception {
        // a Kubernetes secret made with --from-file, or $(cat token), often ends with a newline no header can carry
        CohortConfig config = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><protocol><database url="jdbc:h2:mem:x" password-env="PGPASSWORD"/></protocol></cluster>
                </cohort>""", Map.of("PGPASSWORD", "pg-secret-1\r\n"));

        assertThat(((DatabaseProtocol) config.cluster().orElseThrow().protocol()).connection().password().orElseThrow().reveal())
                .isEqualTo("pg-secret-1");
    }

    @Test
    void secretEqualityComparesValuesButTheHashRevealsNothing() {
        Secret a = new Secret("value-1", "environment variable A");
        Secret b = new Secret("value-1", "file /b");
        Secret c = new Secret("value-2", "environment variable A");

        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        assertThat(a.hashCode()).isEqualTo(c.hashCode());
        assertThat(a).hasToString("Secret[****]");
    }

    @Test
    void errorsAboutSecretsNameTheSourceNotTheValue() throws Exception {
        Path tooBig = dir.resolve("secret");
        Files.writeString(tooBig, "x".repeat(70_000));
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin token-file="secret"/>
                </cohort>""";

        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "cohort.xml", new java.io.ByteArrayInputStream(xml.getBytes()), dir, Map.<String, String>of()::get));

        assertThat(e).hasMessage("cohort.xml:3:10: secret file " + tooBig + " (token-file on <admin>) is larger than 64KiB; "
                + "expected a file holding only the secret");
    }

    @Test
    void aSecretFileWithoutAnEndIsRefusedAtItsAttribute() {
        // a device (or a pipe, or a /proc file) reports a size of 0: the bound holds for what is read
        ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                "cohort.xml", new java.io.ByteArrayInputStream("""
                        <cohort xmlns="urn:cohort:config:1">
                          <node name="n1"/>
                          <admin token-file="/dev/zero"/>
                        </cohort>""".getBytes()), dir, Map.<String, String>of()::get));

        assertThat(e).hasMessage("cohort.xml:3:10: secret file /dev/zero (token-file on <admin>) is larger than 64KiB; "
                + "expected a file holding only the secret");
    }

    @Test
    void aTokenWithSpacesAtItsEndsIsRefusedWithoutShowingIt() {
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin token-env="TOKEN"/>
                </cohort>""";
        for (String token : new String[] {" admin-token-1", "admin-token-1 \n", "   "}) {
            ConfigException e = org.assertj.core.api.Assertions.catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(
                    "cohort.xml", new java.io.ByteArrayInputStream(xml.getBytes()), dir, Map.of("TOKEN", token)::get));

            assertThat(e).as("token %s", token.replace("\n", "\\n")).hasMessageStartingWith("cohort.xml:3:10: environment variable TOKEN")
                    .hasMessageNotContaining("admin-token-1");
        }
    }

    @Test
    void aDisabledAdminEndpointNeedsNoToken() throws Exception {
        String xml = """
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <admin enabled="false" token-env="UNSET_TOKEN"/>
                </cohort>""";
        CohortConfig config = ConfigLoader.parse("cohort.xml", new java.io.ByteArrayInputStream(xml.getBytes()), dir, Map.<String, String>of()::get);

        assertThat(config.admin().enabled()).isFalse();
        assertThat(config.admin().token()).as("the token of an endpoint that never listens is not read").isEmpty();
    }

    private CohortConfig parseFull() throws Exception {
        Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(dir.resolve("secrets/admin-token"), "admin-token-1\n");
        Files.writeString(dir.resolve("secrets/db-password"), "db-secret-2\r\n");
        return TestConfigs.parse("full.xml", dir, Map.of("DB_PASSWORD", "db-secret-1", "COHORT_CLUSTER_SECRET", "cluster-secret-1"));
    }
}
