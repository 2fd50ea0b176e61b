package io.cohort.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Turns a bound {@link RawCohort} into the public records: converts values, applies the defaults of
 * absent elements, resolves paths and secrets, and checks what the schema cannot (unique data source
 * names, via {@link ClusterBinder} the cluster's cross-references, via {@link BalancerBinder} the
 * balancer's, via {@link NodeAndBalancerPorts} the ports of a node and a balancer in one file). Each error points at
 * the element or attribute at fault.
 */
final class ConfigBinder {

    private final SourceMap source;
    private final Path baseDir;
    private final SecretResolver secrets;
    private final BindAddressCheck bindAddresses;

    ConfigBinder(SourceMap source, Path baseDir, Function<String, String> env, BindAddressCheck bindAddresses) {
        this.source = source;
        this.baseDir = baseDir;
        this.secrets = new SecretResolver(env, baseDir);
        this.bindAddresses = bindAddresses;
    }

    ConfigFile bind(Path file, RawCohort raw) throws ConfigException {
        SourceElement root = source.root("cohort");
        Optional<CohortConfig> node = raw.node == null ? Optional.empty() : Optional.of(node(file, root, raw));
        Optional<BalancerConfig> balancer = raw.balancer == null ? Optional.empty()
                : Optional.of(new BalancerBinder(bindAddresses).bind(root.child("balancer"), raw.balancer));
        if (node.isPresent() && balancer.isPresent()) {
            NodeAndBalancerPorts.check(root, raw.admin != null, node.get(), balancer.get());
        }
        return new ConfigFile(file, node, balancer);
    }

    private CohortConfig node(Path file, SourceElement root, RawCohort raw) throws ConfigException {
        List<DataSourceConfig> dataSources = dataSources(root, raw.dataSources);
        Optional<ClusterConfig> cluster = Optional.empty();
        if (raw.cluster != null) {
            cluster = Optional.of(new ClusterBinder(baseDir, secrets, dataSources, bindAddresses).bind(root.child("cluster"), raw.cluster));
        }
        NodeConfig nodeConfig = node(root.child("node"), raw.node);
        AdminConfig adminConfig = admin(root.child("admin"), raw.admin == null ? new RawCohort.RawAdmin() : raw.admin);
        checkDistinctPorts(raw.admin == null ? Optional.empty() : Optional.of(root.child("admin")), root.child("node"),
                nodeConfig, adminConfig);
        return new CohortConfig(file, nodeConfig, adminConfig, dataSources,
                serialization(root.child("serialization"), raw.serialization == null ? new RawCohort.RawSerialization() : raw.serialization),
                cluster);
    }

    private NodeConfig node(SourceElement at, RawCohort.RawNode raw) throws ConfigException {
        bindAddresses.check(at, "bind-addr", raw.bindAddr);
        return new NodeConfig(raw.name, raw.host, raw.bindAddr, at.integer("http-port", raw.httpPort),
                at.path("webapps", raw.webapps, baseDir), at.path("work-dir", raw.workDir, baseDir),
                at.integer("max-threads", raw.maxThreads), at.duration("graceful-stop", raw.gracefulStop),
                at.duration("scan-interval", raw.scanInterval), at.duration("idle-timeout", raw.idleTimeout),
                AddressRanges.parse(at, "trusted-proxies", raw.trustedProxies));
    }

    /**
     * The admin endpoints cannot listen where the applications do: the node would fail to bind at start. Addresses are
     * compared as {@link BindAddresses} do. The error points at the admin port when {@code <admin>} is in the file,
     * else at the node's http-port.
     */
    private static void checkDistinctPorts(Optional<SourceElement> admin, SourceElement node, NodeConfig nodeConfig,
            AdminConfig config) throws ConfigException {
        boolean samePort = config.enabled() && config.port() != 0 && config.port() == nodeConfig.httpPort();
        if (samePort && BindAddresses.overlap(config.bindAddress(), nodeConfig.bindAddress())) {
            if (admin.isEmpty()) {
                throw node.attributeError("http-port", "http-port=\"" + nodeConfig.httpPort() + "\" on " + node.tag()
                        + " is the admin endpoints' port (<admin> left out: its default) on the same address",
                        "another port than " + config.port() + ", or <admin port=\"...\"/>");
            }
            throw admin.get().attributeError("port", "port=\"" + config.port() + "\" on " + admin.get().tag()
                    + " is the node's http-port on the same address", "another port than " + nodeConfig.httpPort());
        }
    }

    private AdminConfig admin(SourceElement at, RawCohort.RawAdmin raw) throws ConfigException {
        DataSize maxUpload = at.size("max-upload", raw.maxUpload);
        if (maxUpload.bytes() < 1) {
            throw at.attributeError("max-upload", "max-upload=\"" + raw.maxUpload + "\" on " + at.tag() + " accepts no WAR at all",
                    "a size of at least 1B, e.g. 256MiB");
        }
        boolean enabled = at.flag("enabled", raw.enabled);
        if (enabled) {
            bindAddresses.check(at, "bind-addr", raw.bindAddr);
        }
        // an endpoint that never listens reads no token: turning it off must not need the variable or file set
        Optional<Secret> token = enabled
                ? secrets.optional(at, "token-env", raw.tokenEnv, "token-file", raw.tokenFile) : Optional.empty();
        return new AdminConfig(enabled, raw.bindAddr, at.integer("port", raw.port), token, maxUpload);
    }

    private List<DataSourceConfig> dataSources(SourceElement root, List<RawCohort.RawDataSource> raws) throws ConfigException {
        List<DataSourceConfig> result = new ArrayList<>();
        Map<String, SourceElement> seen = new HashMap<>();
        for (int i = 0; i < raws.size(); i++) {
            RawCohort.RawDataSource raw = raws.get(i);
            SourceElement at = root.child("datasource", i);
            SourceElement first = seen.putIfAbsent(raw.name, at);
            if (first != null) {
                throw at.attributeError("name", "duplicate data source name \"" + raw.name + "\"",
                        "a name not used by the <datasource> at " + first.position());
            }
            result.add(new DataSourceConfig(raw.name, raw.url, Optional.ofNullable(raw.user),
                    secrets.optional(at, "password-env", raw.passwordEnv, "password-file", raw.passwordFile),
                    at.integer("max-pool-size", raw.maxPoolSize), connectionTimeout(at, raw.connectionTimeout)));
        }
        return result;
    }

    /** At least {@link DataSourceConfig#MIN_CONNECTION_TIMEOUT}: the pool would wait forever at 0 and not start below it. */
    private static Duration connectionTimeout(SourceElement at, String value) throws ConfigException {
        Duration timeout = at.duration("connection-timeout", value);
        if (timeout.compareTo(DataSourceConfig.MIN_CONNECTION_TIMEOUT) < 0) {
            String minimum = ConfigDuration.format(DataSourceConfig.MIN_CONNECTION_TIMEOUT);
            throw at.attributeError("connection-timeout", "connection-timeout=\"" + value + "\" on " + at.tag() + " is below "
                    + minimum + ", the shortest wait a connection pool supports", "a duration of at least " + minimum + ", e.g. 5s");
        }
        return timeout;
    }

    private SerializationConfig serialization(SourceElement at, RawCohort.RawSerialization raw) throws ConfigException {
        return new SerializationConfig(MaxBytesAttribute.read(at, raw.maxBytes), at.integer("max-depth", raw.maxDepth),
                at.longInteger("max-references", raw.maxReferences), raw.allow.stream().map(a -> a.pattern).toList());
    }
}
