package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** WEB-INF/cohort-web.xml overrides the node's policy; whatever it leaves out is inherited. */
class WebAppOverrideTest {

    private static final ReplicationSettings NODE_ASYNC = new ReplicationSettings(1, true, Duration.ofSeconds(1),
            Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, new Delivery.Async(500));
    private static final ClusterConfig CLUSTER = new ClusterConfig("shop", true, NODE_ASYNC,
            new MulticastProtocol("230.230.0.1", 45566, "127.0.0.1", 2, Optional.empty(), PeerProtocol.DEFAULT_BATCH_SIZE, PeerProtocol.DEFAULT_FLUSH_INTERVAL), Optional.empty());
    private static final SerializationConfig NODE_SERIALIZATION = new SerializationConfig(DataSize.parse("1MB"), 100, 100_000,
            List.of("java.util.*"));

    @Test
    void cohortWebXmlBindsOnlyWhatItStates() throws Exception {
        WebAppOverride override = ConfigLoader.parseWebOverride("cohort-web.xml", TestConfigs.resource("cohort-web.xml"));

        assertThat(override).isEqualTo(new WebAppOverride(
                Optional.of(new WebAppOverride.Replication(Optional.empty(), Optional.of(3), Optional.empty(),
                        Optional.of(Duration.ofSeconds(2)), Optional.empty(), Optional.of(Scope.ALL_ATTRIBUTES),
                        Optional.of(new WebAppOverride.SyncOverride(Optional.empty())))),
                Optional.of(new SerializationOverride(Optional.of(DataSize.parse("4MiB")), Optional.empty(), List.of("com.shop.cart.**")))));
    }

    @Test
    void overrideMergesOverTheNodesClusterAndSerialization() throws Exception {
        WebAppOverride override = ConfigLoader.parseWebOverride("cohort-web.xml", TestConfigs.resource("cohort-web.xml"));

        ClusterConfig effective = CLUSTER.forWebApp(override);

        assertThat(effective.replication()).isEqualTo(new ReplicationSettings(3, true, Duration.ofSeconds(2),
                Trigger.ON_REQUEST_END, Scope.ALL_ATTRIBUTES, Delivery.Sync.DEFAULT));
        assertThat(effective.enabled()).isTrue();
        assertThat(effective.protocol()).isSameAs(CLUSTER.protocol());
        assertThat(NODE_SERIALIZATION.merge(override.serializationOrNone())).isEqualTo(new SerializationConfig(
                DataSize.parse("4MiB"), 100, 100_000, List.of("java.util.*", "com.shop.cart.**")));
    }

    @Test
    void switchingDeliveryKeepsTheNodesSettingOfThatKindOrTakesTheDefault() throws Exception {
        ReplicationSettings nodeSync = new ReplicationSettings(1, true, Duration.ofSeconds(1), Trigger.ON_REQUEST_END,
                Scope.MODIFIED_ATTRIBUTES, new Delivery.Sync(Duration.ofSeconds(5)));

        assertThat(nodeSync.apply(replication("<synchronous-replication/>")).delivery()).isEqualTo(new Delivery.Sync(Duration.ofSeconds(5)));
        assertThat(nodeSync.apply(replication("<synchronous-replication timeout=\"250ms\"/>")).delivery())
                .isEqualTo(new Delivery.Sync(Duration.ofMillis(250)));
        assertThat(nodeSync.apply(replication("<asynchronous-replication/>")).delivery()).isEqualTo(Delivery.Async.DEFAULT);
        assertThat(NODE_ASYNC.apply(replication("<asynchronous-replication/>")).delivery()).isEqualTo(new Delivery.Async(500));
        assertThat(NODE_ASYNC.apply(replication("<asynchronous-replication queue-capacity=\"7\"/>")).delivery())
                .isEqualTo(new Delivery.Async(7));
        assertThat(NODE_ASYNC.apply(replication("")).delivery()).isEqualTo(new Delivery.Async(500));
    }

    @Test
    void webAppCanSwitchReplicationOff() throws Exception {
        WebAppOverride override = parse("<replication enabled=\"false\"/>");

        assertThat(CLUSTER.forWebApp(override).enabled()).isFalse();
        assertThat(CLUSTER.forWebApp(override).replication()).isEqualTo(NODE_ASYNC);
    }

    @Test
    void noOverrideChangesNothing(@TempDir Path dir) throws Exception {
        assertThat(ConfigLoader.loadWebOverride(dir.resolve("WEB-INF/cohort-web.xml"))).isEqualTo(WebAppOverride.NONE);
        assertThat(CLUSTER.forWebApp(WebAppOverride.NONE)).isEqualTo(CLUSTER);
        assertThat(CLUSTER.forWebApp(parse(""))).isEqualTo(CLUSTER);
        assertThat(NODE_SERIALIZATION.merge(WebAppOverride.NONE.serializationOrNone())).isEqualTo(NODE_SERIALIZATION);
    }

    @Test
    void invalidOverrideNamesFileLineColumn() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parseWebOverride("shop.war!/WEB-INF/cohort-web.xml",
                stream("""
                        <cohort-web xmlns="urn:cohort:web:1">
                          <replication write-quota="0"/>
                        </cohort-web>""")));

        assertThat(e).hasMessage("shop.war!/WEB-INF/cohort-web.xml:2:16: invalid value write-quota=\"0\" on <replication>; "
                + "expected an integer ≥ 1");
    }

    @Test
    void nodeConfigurationIsNotAWebOverride() {
        ConfigException e = catchThrowableOfType(ConfigException.class,
                () -> ConfigLoader.parseWebOverride("cohort-web.xml", TestConfigs.resource("minimal.xml")));

        assertThat(e).hasMessage("cohort-web.xml:1:1: unknown root element <cohort>; expected <cohort-web xmlns=\"urn:cohort:web:1\">");
    }

    private static WebAppOverride.Replication replication(String delivery) throws ConfigException {
        return parse("<replication>" + delivery + "</replication>").replication().orElseThrow();
    }

    private static WebAppOverride parse(String body) throws ConfigException {
        return ConfigLoader.parseWebOverride("cohort-web.xml", stream("<cohort-web xmlns=\"urn:cohort:web:1\">" + body + "</cohort-web>"));
    }

    private static ByteArrayInputStream stream(String xml) {
        return new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void anOverrideMaxBytesThatRefusesAlmostEveryValueIsRefusedAtItsAttribute() {
        ConfigException e = catchThrowableOfType(() -> ConfigLoader.parseWebOverride("cohort-web.xml", new java.io.ByteArrayInputStream("""
                <cohort-web xmlns="urn:cohort:web:1">
                  <serialization max-bytes="0B"/>
                </cohort-web>""".getBytes(java.nio.charset.StandardCharsets.UTF_8))), ConfigException.class);
        assertThat(e).hasMessage("cohort-web.xml:2:18: max-bytes=\"0B\" on <serialization> is below 1KiB and would refuse "
                + "almost every replicated value (one java.math.BigDecimal serializes to about 300 bytes); "
                + "expected a size of at least 1KiB, e.g. 1MB");
    }
}
