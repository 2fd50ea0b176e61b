package io.cohort.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The Java binding applies exactly the defaults the XSD declares: every {@code default=} of
 * cohort-config-1.xsd is checked here against the value a file that omits the attribute gets, and
 * an attribute with a default that this test does not know fails it, so the two cannot drift.
 */
class ConfigDefaultsTest {

    private static final Path BASE = TestConfigs.BASE;

    /** "element/attribute" to the bound value when the attribute is omitted. */
    private static Map<String, Function<Configs, Object>> bindings() {
        Map<String, Function<Configs, Object>> b = new LinkedHashMap<>();
        b.put("node/host", c -> c.peer.node().host());
        b.put("node/bind-addr", c -> c.peer.node().bindAddress());
        b.put("node/http-port", c -> c.peer.node().httpPort());
        b.put("node/webapps", c -> c.peer.node().webapps());
        b.put("node/work-dir", c -> c.peer.node().workDir());
        b.put("node/max-threads", c -> c.peer.node().maxThreads());
        b.put("node/graceful-stop", c -> c.peer.node().gracefulStop());
        b.put("node/scan-interval", c -> c.peer.node().scanInterval());
        b.put("node/idle-timeout", c -> c.peer.node().idleTimeout());
        b.put("node/trusted-proxies", c -> String.join(" ", c.peer.node().trustedProxies()));
        b.put("admin/enabled", c -> c.peer.admin().enabled());
        b.put("admin/bind-addr", c -> c.peer.admin().bindAddress());
        b.put("admin/port", c -> c.peer.admin().port());
        b.put("admin/max-upload", c -> c.peer.admin().maxUpload());
        b.put("datasource/max-pool-size", c -> c.peer.dataSources().get(0).maxPoolSize());
        b.put("datasource/connection-timeout", c -> c.peer.dataSources().get(0).connectionTimeout());
        b.put("serialization/max-bytes", c -> c.peer.serialization().maxBytes());
        b.put("serialization/max-depth", c -> c.peer.serialization().maxDepth());
        b.put("serialization/max-references", c -> c.peer.serialization().maxReferences());
        b.put("cluster/enabled", c -> c.peerCluster().enabled());
        b.put("cluster/write-quota", c -> c.peerCluster().replication().writeQuota());
        b.put("cluster/allow-colocation", c -> c.peerCluster().replication().allowColocation());
        b.put("cluster/cache-miss-delay", c -> c.peerCluster().replication().cacheMissDelay());
        b.put("replication-policy/trigger", c -> c.peerCluster().replication().trigger());
        b.put("replication-policy/scope", c -> c.peerCluster().replication().scope());
        b.put("asynchronous-replication/queue-capacity", c -> ((Delivery.Async) c.peerCluster().replication().delivery()).queueCapacity());
        b.put("synchronous-replication/timeout", c -> ((Delivery.Sync) c.multicastCluster().replication().delivery()).timeout());
        b.put("peer/bind-addr", c -> c.peerProtocol().bindAddress());
        b.put("peer/start-port", c -> c.peerProtocol().startPort());
        b.put("peer/range", c -> c.peerProtocol().range());
        b.put("peer/timeout", c -> c.peerProtocol().timeout());
        b.put("peer/discovery", c -> c.peerProtocol().discovery());
        b.put("peer/batch-size", c -> c.peerProtocol().batchSize());
        b.put("peer/flush-interval", c -> c.peerProtocol().flushInterval());
        b.put("multicast/ip", c -> c.multicastProtocol().ip());
        b.put("multicast/port", c -> c.multicastProtocol().port());
        b.put("multicast/bind-addr", c -> c.multicastProtocol().bindAddress());
        b.put("multicast/ttl", c -> c.multicastProtocol().ttl());
        b.put("multicast/batch-size", c -> c.multicastProtocol().batchSize());
        b.put("multicast/flush-interval", c -> c.multicastProtocol().flushInterval());
        b.put("database/table-prefix", c -> c.databaseProtocol().tablePrefix());
        b.put("database/batch-size", c -> c.databaseProtocol().batchSize());
        b.put("database/flush-interval", c -> c.databaseProtocol().flushInterval());
        b.put("security/encrypt", c -> c.peerCluster().security().orElseThrow().encrypt());
        b.put("balancer/name", c -> c.balancer.name());
        b.put("balancer/host", c -> c.balancer.host());
        b.put("balancer/bind-addr", c -> c.balancer.bindAddress());
        b.put("balancer/port", c -> c.balancer.port());
        b.put("balancer/admin-bind-addr", c -> c.balancer.adminBindAddress());
        b.put("balancer/admin-port", c -> c.balancer.adminPort());
        b.put("balancer/policy", c -> c.balancer.policy());
        b.put("balancer/session-cookie", c -> c.balancer.sessionCookie());
        b.put("balancer/connect-timeout", c -> c.balancer.connectTimeout());
        b.put("balancer/request-timeout", c -> c.balancer.requestTimeout());
        b.put("balancer/idle-timeout", c -> c.balancer.idleTimeout());
        b.put("balancer/max-request-body", c -> c.balancer.maxRequestBody());
        b.put("balancer/max-header-size", c -> c.balancer.maxHeaderSize());
        b.put("balancer/max-connections", c -> c.balancer.memberLimits().maxConnections());
        b.put("balancer/max-queued-per-member", c -> c.balancer.memberLimits().maxQueued());
        b.put("balancer/max-member-header-size", c -> c.balancer.memberLimits().maxHeaderSize());
        b.put("balancer/graceful-stop", c -> c.balancer.gracefulStop());
        b.put("balancer/trusted-proxies", c -> c.balancer.trustedProxies().isEmpty() ? "none"
                : String.join(" ", c.balancer.trustedProxies()));
        b.put("health/path", c -> c.balancer.health().path());
        b.put("health/interval", c -> c.balancer.health().interval());
        b.put("health/timeout", c -> c.balancer.health().timeout());
        b.put("health/fall", c -> c.balancer.health().fall());
        b.put("health/rise", c -> c.balancer.health().rise());
        b.put("client-limits/header-timeout", c -> c.balancer.clientLimits().headerTimeout());
        b.put("client-limits/max-connections", c -> c.balancer.clientLimits().maxConnections());
        b.put("client-limits/max-connections-per-address", c -> c.balancer.clientLimits().maxConnectionsPerAddress().isEmpty()
                ? "unlimited" : String.valueOf(c.balancer.clientLimits().maxConnectionsPerAddress().getAsInt()));
        b.put("client-limits/max-request-rate", c -> c.balancer.clientLimits().requestRate()
                .map(rate -> String.valueOf(rate.perSecond())).orElse("unlimited"));
        b.put("balancer-member/host", c -> c.balancer.members().get(0).host());
        return b;
    }

    @Test
    void everyOmittedAttributeGetsTheDefaultDeclaredInTheSchema() throws Exception {
        Configs configs = new Configs();
        Map<String, Function<Configs, Object>> bindings = bindings();
        Map<String, String> schemaDefaults = new LinkedHashMap<>();
        XsdModel.read("cohort-config-1.xsd").elements.forEach((element, attributes) -> attributes.forEach(
                a -> a.defaultValue().ifPresent(d -> schemaDefaults.put(element + "/" + a.name(), d))));

        assertThat(bindings.keySet()).as("attributes with a schema default").containsExactlyInAnyOrderElementsOf(schemaDefaults.keySet());
        schemaDefaults.forEach((attribute, lexical) -> {
            Object bound = bindings.get(attribute).apply(configs);
            assertThat(bound).as(attribute + " default=\"" + lexical + "\"").isEqualTo(javaValue(bound, lexical));
        });
    }

    @Test
    void tlsHasNoSchemaDefaultBecauseItFollowsTheProtocolAndEncryption() throws Exception {
        Configs configs = new Configs();

        assertThat(configs.peerCluster().security().orElseThrow().tls()).as("<peer>, encrypted").isTrue();
        assertThat(configs.multicastCluster().security().orElseThrow().tls()).as("<multicast>").isFalse();
    }

    @Test
    void absentElementsGetTheSameDefaultsAsEmptyOnes() throws Exception {
        CohortConfig minimal = TestConfigs.parseText("""
                <cohort xmlns="urn:cohort:config:1">
                  <node name="n1"/>
                  <cluster name="c"><protocol><peer/></protocol></cluster>
                </cohort>""", Map.of());
        CohortConfig empty = new Configs().peer;

        assertThat(minimal.admin()).isEqualTo(empty.admin());
        assertThat(minimal.serialization()).isEqualTo(empty.serialization());
        assertThat(minimal.cluster().orElseThrow().replication()).isEqualTo(empty.cluster().orElseThrow().replication());
    }

    @Test
    void absentHealthAndClientLimitsElementsGetTheSameDefaultsAsEmptyOnes() throws Exception {
        BalancerConfig minimal = TestConfigs.parseBalancerText("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer><balancer-member name="m1" url="http://127.0.0.1:8081"/></balancer>
                </cohort>""");

        assertThat(minimal.health()).isEqualTo(new Configs().balancer.health()).isEqualTo(HealthCheckConfig.DEFAULT);
        assertThat(minimal.clientLimits()).isEqualTo(new Configs().balancer.clientLimits()).isEqualTo(ClientLimitsConfig.DEFAULT);
        assertThat(minimal.memberLimits()).isEqualTo(new Configs().balancer.memberLimits()).isEqualTo(MemberLimitsConfig.DEFAULT);
        assertThat(minimal.members().get(0).weight()).isEqualTo(1);
        assertThat(minimal.members().get(0).healthUrl()).hasToString("http://127.0.0.1:8081/health");
        assertThat(BalancerConfig.defaults(minimal.members())).as("BalancerConfig.defaults").isEqualTo(minimal);
    }

    @Test
    void deliveryConstantsEqualTheSchemaDefaults() throws Exception {
        Configs configs = new Configs();

        assertThat(configs.peerCluster().replication().delivery()).isEqualTo(Delivery.Async.DEFAULT);
        assertThat(configs.multicastCluster().replication().delivery()).isEqualTo(Delivery.Sync.DEFAULT);
        assertThat(((DatabaseProtocol) configs.database.cluster().orElseThrow().protocol()).connection().maxPoolSize())
                .isEqualTo(configs.peer.dataSources().get(0).maxPoolSize());
    }

    @Test
    void webOverrideSchemaDeclaresNoDefaultsBecauseAbsentMeansInherit() {
        XsdModel.read("cohort-web-1.xsd").elements.forEach((element, attributes) ->
                assertThat(attributes).as(element).allSatisfy(a -> assertThat(a.defaultValue()).isEmpty()));
    }

    /** The schema's lexical default as the Java type the binding produced. */
    private static Object javaValue(Object bound, String lexical) {
        if (bound instanceof Duration) {
            return ConfigDuration.parse(lexical);
        } else if (bound instanceof DataSize) {
            return DataSize.parse(lexical);
        } else if (bound instanceof Integer) {
            return Integer.valueOf(lexical);
        } else if (bound instanceof Long) {
            return Long.valueOf(lexical);
        } else if (bound instanceof Boolean) {
            return Boolean.valueOf(lexical);
        } else if (bound instanceof Path) {
            return BASE.resolve(lexical);
        } else if (bound instanceof Trigger) {
            return Trigger.fromXml(lexical);
        } else if (bound instanceof Scope) {
            return Scope.fromXml(lexical);
        } else if (bound instanceof Discovery) {
            return Discovery.fromXml(lexical);
        } else if (bound instanceof Policy) {
            return Policy.fromXml(lexical);
        }
        return lexical;
    }

    /** Files with every optional element present and empty: peer + async, multicast + sync, database. */
    private static final class Configs {
        final CohortConfig peer;
        final CohortConfig multicast;
        final CohortConfig database;
        final BalancerConfig balancer;

        Configs() throws ConfigException {
            Map<String, String> env = Map.of("SECRET", "s3cret");
            String file = TestConfigs.resourceText("empty-elements.xml");
            peer = ConfigLoader.parse("empty-elements.xml", TestConfigs.resource("empty-elements.xml"), BASE, env::get);
            multicast = TestConfigs.parseText(file.replace("<asynchronous-replication/>", "<synchronous-replication/>")
                    .replace("<peer/>", "<multicast/>"), env);
            // no <security> with the database protocol: its members talk only to the database
            database = TestConfigs.parseText(file.replace("<peer/>", "<database url=\"jdbc:h2:mem:s\"/>")
                    .replace("<security secret-env=\"SECRET\"/>", ""), env);
            balancer = ConfigLoader.parseBalancer("empty-elements.xml", TestConfigs.resource("empty-elements.xml"), BASE, env::get);
        }

        ClusterConfig peerCluster() {
            return peer.cluster().orElseThrow();
        }

        ClusterConfig multicastCluster() {
            return multicast.cluster().orElseThrow();
        }

        PeerProtocol peerProtocol() {
            return (PeerProtocol) peerCluster().protocol();
        }

        MulticastProtocol multicastProtocol() {
            return (MulticastProtocol) multicastCluster().protocol();
        }

        DatabaseProtocol databaseProtocol() {
            return (DatabaseProtocol) database.cluster().orElseThrow().protocol();
        }
    }
}
