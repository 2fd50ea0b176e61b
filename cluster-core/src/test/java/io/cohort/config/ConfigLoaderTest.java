package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

    private static final Map<String, String> ENV = Map.of("DB_PASSWORD", "db-secret-1", "COHORT_CLUSTER_SECRET", "cluster-secret-1");

    @TempDir
    Path dir;

    @Test
    void fullFileBindsEveryElementToTheRecords() throws Exception {
        writeSecretFiles();

        CohortConfig config = TestConfigs.parse("full.xml", dir, ENV);

        assertThat(config.source()).isEqualTo(dir.resolve("full.xml"));
        assertThat(config.node()).isEqualTo(new NodeConfig("n1", "blade1", "0.0.0.0", 8081, dir.resolve("apps"),
                Path.of("/var/tmp/cohort-n1"), 50, Duration.ofSeconds(10), Duration.ZERO, Duration.ofSeconds(90),
                List.of("10.0.0.5", "10.1.0.0/16", "fd00::/8")));
        assertThat(config.node().hotDeployment()).isFalse();
        assertThat(config.admin()).isEqualTo(new AdminConfig(true, "127.0.0.2", 9091, Optional.of(new Secret("admin-token-1", "test")),
                DataSize.parse("256MiB")));
        assertThat(config.admin().apiEnabled()).isTrue();
        DataSourceConfig shop = new DataSourceConfig("jdbc/jpetstore", "jdbc:h2:mem:jpetstore", Optional.of("sa"),
                Optional.of(new Secret("db-secret-1", "test")), 20, Duration.ofSeconds(5));
        DataSourceConfig sessions = new DataSourceConfig("jdbc/sessions", "jdbc:postgresql://127.0.0.1:5432/cohort", Optional.of("cohort"),
                Optional.of(new Secret("db-secret-2", "test")), 10, Duration.ofSeconds(30));
        assertThat(config.dataSources()).containsExactly(shop, sessions);
        assertThat(config.dataSource("jdbc/sessions")).contains(sessions);
        assertThat(config.dataSource("jdbc/none")).isEmpty();
        assertThat(config.serialization()).isEqualTo(new SerializationConfig(DataSize.parse("512KiB"), 50, 10_000,
                List.of("org.mybatis.jpetstore.domain.*", "java.util.**")));

        ClusterConfig cluster = config.cluster().orElseThrow();
        assertThat(config.replicated()).isTrue();
        assertThat(cluster.name()).isEqualTo("shop");
        assertThat(cluster.enabled()).isTrue();
        assertThat(cluster.replication()).isEqualTo(new ReplicationSettings(2, false, Duration.ofMillis(500),
                Trigger.ON_SET_ATTRIBUTE, Scope.ALL_ATTRIBUTES, new Delivery.Sync(Duration.ofSeconds(3))));
        assertThat(cluster.protocol()).isEqualTo(new PeerProtocol("127.0.0.3", 7900, 5, Duration.ofSeconds(2), Discovery.STATIC,
                Optional.empty(), Optional.empty(), Optional.empty(),
                List.of(new PeerMember("127.0.0.1", 7900), new PeerMember("blade2", 7901)), PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL));
        assertThat(cluster.security()).contains(new SecurityConfig(new Secret("cluster-secret-1", "test"), false));
    }

    @Test
    void minimalFileIsANodeWithDefaultsAndNoCluster() throws Exception {
        CohortConfig config = TestConfigs.parse("minimal.xml", dir, Map.of());

        assertThat(config.node()).isEqualTo(new NodeConfig("n1", "localhost", "127.0.0.1", 8080, dir.resolve("webapps"),
                dir.resolve("work"), 200, Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(65),
                List.of("127.0.0.0/8", "::1")));
        assertThat(config.admin()).isEqualTo(new AdminConfig(true, "127.0.0.1", 9090, Optional.empty(), DataSize.parse("256MiB")));
        assertThat(config.admin().apiEnabled()).isFalse();
        assertThat(config.dataSources()).isEmpty();
        assertThat(config.serialization()).isEqualTo(new SerializationConfig(DataSize.parse("1MB"), 100, 100_000, List.of()));
        assertThat(config.cluster()).isEmpty();
        assertThat(config.replicated()).isFalse();
    }

    @Test
    void clusterWithoutPolicyOrDeliveryReplicatesAsynchronouslyAtRequestEnd() throws Exception {
        CohortConfig config = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="shop"><protocol><multicast/></protocol></cluster>
                </cohort>""", Map.of());

        ClusterConfig cluster = config.cluster().orElseThrow();
        assertThat(cluster.replication()).isEqualTo(new ReplicationSettings(1, true, Duration.ofSeconds(1),
                Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT));
        assertThat(cluster.protocol()).isEqualTo(new MulticastProtocol("230.230.0.1", 45566, "127.0.0.1", 2, Optional.empty(),
                PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL));
        assertThat(cluster.security()).isEmpty();
    }

    @Test
    void groupProtocolsTakeABatchSizeAndFlushIntervalAndRefuseABatchOfZero() throws Exception {
        CohortConfig peer = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="shop"><protocol><peer batch-size="1"/></protocol></cluster>
                </cohort>""", Map.of());
        CohortConfig multicast = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="shop"><protocol><multicast batch-size="500" flush-interval="0s"/></protocol></cluster>
                </cohort>""", Map.of());

        assertThat(((GroupProtocol) peer.cluster().orElseThrow().protocol()).batchSize()).isEqualTo(1);
        assertThat(((GroupProtocol) multicast.cluster().orElseThrow().protocol()).batchSize()).isEqualTo(500);
        assertThat(((GroupProtocol) multicast.cluster().orElseThrow().protocol()).flushInterval()).isZero();
        assertThat(((GroupProtocol) peer.cluster().orElseThrow().protocol()).flushInterval())
                .isEqualTo(PeerProtocol.DEFAULT_FLUSH_INTERVAL);
        assertThatThrownBy(() -> TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="shop"><protocol><peer batch-size="0"/></protocol></cluster>
                </cohort>""", Map.of()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cohort.xml:3:").hasMessageContaining("batch-size=\"0\" on <peer>");
    }

    @Test
    void databaseProtocolUsesTheDeclaredDataSource() throws Exception {
        CohortConfig config = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <datasource name="jdbc/sessions" url="jdbc:h2:mem:s" max-pool-size="4"/>
                  <cluster name="shop" enabled="false">
                    <asynchronous-replication queue-capacity="50"/>
                    <protocol><database data-source="jdbc/sessions" table-prefix="shop_" batch-size="10" flush-interval="1s"/></protocol>
                  </cluster>
                </cohort>""", Map.of());

        ClusterConfig cluster = config.cluster().orElseThrow();
        assertThat(config.replicated()).isFalse();
        assertThat(cluster.replication().delivery()).isEqualTo(new Delivery.Async(50));
        assertThat(cluster.protocol()).isEqualTo(new DatabaseProtocol(config.dataSource("jdbc/sessions").orElseThrow(), "shop_", 10,
                Duration.ofSeconds(1)));
    }

    @Test
    void databaseProtocolWithUrlGetsAnInlineConnection() throws Exception {
        CohortConfig config = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="shop">
                    <protocol><database url="jdbc:postgresql://db/cohort" user="cohort" password-env="PGPASSWORD"/></protocol>
                  </cluster>
                </cohort>""", Map.of("PGPASSWORD", "pg-secret"));

        assertThat(config.cluster().orElseThrow().protocol()).isEqualTo(new DatabaseProtocol(
                new DataSourceConfig(DatabaseProtocol.INLINE_CONNECTION_NAME, "jdbc:postgresql://db/cohort", Optional.of("cohort"),
                        Optional.of(new Secret("pg-secret", "test")), 10, Duration.ofSeconds(30)),
                "cohort_", 100, Duration.ofMillis(50)));
    }

    @Test
    void peerDiscoveryByDnsAndJdbcAndACustomStack() throws Exception {
        Files.writeString(dir.resolve("tcp.xml"), "<config/>");
        CohortConfig dns = TestConfigs.parse("peer-dns.xml", dir, Map.of());
        CohortConfig jdbc = TestConfigs.parse("peer-jdbc.xml", dir, Map.of());

        PeerProtocol byDns = (PeerProtocol) dns.cluster().orElseThrow().protocol();
        assertThat(byDns.discovery()).isEqualTo(Discovery.DNS);
        assertThat(byDns.dnsQuery()).contains("_cohort._tcp.shop.internal");
        assertThat(byDns.stack()).contains(dir.resolve("tcp.xml"));
        PeerProtocol byJdbc = (PeerProtocol) jdbc.cluster().orElseThrow().protocol();
        assertThat(byJdbc.discovery()).isEqualTo(Discovery.JDBC);
        assertThat(byJdbc.discoveryDataSource()).isEqualTo(jdbc.dataSource("jdbc/ping"));
    }

    @Test
    void loadResolvesRelativePathsAgainstTheFilesDirectory() throws Exception {
        Path file = dir.resolve("conf/cohort.xml");
        Files.createDirectories(file.getParent());
        Files.writeString(file, TestConfigs.resourceText("minimal.xml"));

        CohortConfig config = ConfigLoader.load(file);

        assertThat(config.source()).isEqualTo(file);
        assertThat(config.node().webapps()).isEqualTo(dir.resolve("conf/webapps"));
        assertThat(config.node().workDir()).isEqualTo(dir.resolve("conf/work"));
    }

    private void writeSecretFiles() throws IOException {
        Files.createDirectories(dir.resolve("secrets"));
        Files.writeString(dir.resolve("secrets/admin-token"), "admin-token-1\n");
        Files.writeString(dir.resolve("secrets/db-password"), "db-secret-2\r\n");
    }
}
