package io.cohort.config;

import io.cohort.net.IpLiteral;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The {@code <cluster>} part of {@link ConfigBinder}: replication settings, the protocol and
 * security, with the checks the schema cannot express: the database protocol names a declared data
 * source or a URL (not both), peer discovery has what its kind needs, stack files are readable,
 * the cluster secret resolves, the multicast group is a multicast address.
 */
final class ClusterBinder {


    private final Path baseDir;
    private final SecretResolver secrets;
    private final List<DataSourceConfig> dataSources;
    private final BindAddressCheck bindAddresses;

    ClusterBinder(Path baseDir, SecretResolver secrets, List<DataSourceConfig> dataSources, BindAddressCheck bindAddresses) {
        this.baseDir = baseDir;
        this.secrets = secrets;
        this.dataSources = dataSources;
        this.bindAddresses = bindAddresses;
    }

    ClusterConfig bind(SourceElement at, RawCohort.RawCluster raw) throws ConfigException {
        RawCohort.RawReplicationPolicy policy = raw.replicationPolicy == null ? new RawCohort.RawReplicationPolicy() : raw.replicationPolicy;
        SourceElement policyAt = at.child("replication-policy");
        ReplicationSettings replication = new ReplicationSettings(at.integer("write-quota", raw.writeQuota),
                at.flag("allow-colocation", raw.allowColocation), at.duration("cache-miss-delay", raw.cacheMissDelay),
                policyAt.convert("trigger", policy.trigger, Trigger::fromXml),
                policyAt.convert("scope", policy.scope, Scope::fromXml), delivery(at, raw));
        SourceElement protocolAt = at.child("protocol");
        boolean enabled = at.flag("enabled", raw.enabled);
        // a disabled cluster starts no transport: its address is not bound, so not checked
        BindAddressCheck transportAddress = enabled ? bindAddresses : BindAddressCheck.NOT_CHECKED;
        ProtocolConfig protocol = raw.protocol.peer != null ? peer(protocolAt.child("peer"), raw.protocol.peer, transportAddress)
                : raw.protocol.multicast != null
                ? multicast(protocolAt.child("multicast"), raw.protocol.multicast, transportAddress)
                : database(protocolAt.child("database"), raw.protocol.database);
        Optional<SecurityConfig> security = Optional.empty();
        if (raw.security != null) {
            security = Optional.of(security(at.child("security"), raw.security, protocol));
        }
        return new ClusterConfig(raw.name, enabled, replication, protocol, security);
    }

    private SecurityConfig security(SourceElement at, RawCohort.RawSecurity raw, ProtocolConfig protocol) throws ConfigException {
        if (protocol instanceof DatabaseProtocol) {
            // nothing would use it: members of the database protocol never talk to each other, and the connection's
            // security (TLS, the password) is the data source's, in its JDBC URL
            throw at.error(at.tag() + " has no effect with the <database> protocol: its members talk only to the database",
                    "no <security>; secure the database connection in its JDBC URL (PostgreSQL: ?sslmode=verify-full)");
        }
        Secret secret = secrets.required(at, "secret-env", raw.secretEnv, "secret-file", raw.secretFile);
        boolean encrypt = at.flag("encrypt", raw.encrypt);
        // absent: peer members encrypt over TLS, which authenticates a connection before a byte of JGroups is read
        boolean tls = raw.tls == null ? protocol instanceof PeerProtocol && encrypt : at.flag("tls", raw.tls);
        if (tls && !(protocol instanceof PeerProtocol)) {
            throw at.attributeError("tls", "tls=\"true\" on " + at.tag() + " needs the <peer> protocol: members of "
                    + "a multicast group send UDP datagrams, which TLS cannot carry", "tls=\"false\", or <peer>");
        }
        if (tls && !encrypt) {
            throw at.attributeError("encrypt", "encrypt=\"false\" on " + at.tag() + " contradicts tls=\"true\": TLS always encrypts",
                    "no encrypt attribute (or encrypt=\"true\") with tls=\"true\"");
        }
        return new SecurityConfig(secret, encrypt, tls);
    }

    private static Delivery delivery(SourceElement cluster, RawCohort.RawCluster raw) throws ConfigException {
        if (raw.synchronous != null) {
            return new Delivery.Sync(cluster.child("synchronous-replication").duration("timeout", raw.synchronous.timeout));
        }
        RawCohort.RawAsynchronous async = raw.asynchronous == null ? new RawCohort.RawAsynchronous() : raw.asynchronous;
        return new Delivery.Async(cluster.child("asynchronous-replication").integer("queue-capacity", async.queueCapacity));
    }

    private PeerProtocol peer(SourceElement at, RawCohort.RawPeer raw, BindAddressCheck transportAddress) throws ConfigException {
        Discovery discovery = at.convert("discovery", raw.discovery, Discovery::fromXml);
        requireExactlyWith(at, "dns-query", raw.dnsQuery, discovery, Discovery.DNS, "the DNS name whose records list the members");
        requireExactlyWith(at, "data-source", raw.dataSource, discovery, Discovery.JDBC, "the name of a declared <datasource>");
        Optional<DataSourceConfig> jdbc = raw.dataSource == null ? Optional.empty() : Optional.of(declared(at, raw.dataSource));
        List<PeerMember> members = new ArrayList<>();
        for (int i = 0; i < raw.members.size(); i++) {
            RawCohort.RawMember member = raw.members.get(i);
            members.add(new PeerMember(member.host, at.child("member", i).integer("port", member.port)));
        }
        transportAddress.checkGroup(at, "bind-addr", raw.bindAddr);
        return new PeerProtocol(raw.bindAddr, at.integer("start-port", raw.startPort), at.integer("range", raw.range),
                at.duration("timeout", raw.timeout), discovery, Optional.ofNullable(raw.dnsQuery), jdbc, stack(at, raw.stack), members,
                at.integer("batch-size", raw.batchSize), at.duration("flush-interval", raw.flushInterval));
    }

    private static void requireExactlyWith(SourceElement at, String attribute, String value, Discovery discovery, Discovery needing,
                                           String meaning) throws ConfigException {
        if (value == null && discovery == needing) {
            throw at.attributeError("discovery", "discovery=\"" + discovery.xmlName() + "\" on " + at.tag() + " needs attribute " + attribute,
                    attribute + "=\"...\": " + meaning);
        }
        if (value != null && discovery != needing) {
            throw at.attributeError(attribute, "attribute " + attribute + " on " + at.tag() + " applies only with discovery=\""
                    + needing.xmlName() + "\", not \"" + discovery.xmlName() + "\"", "discovery=\"" + needing.xmlName() + "\" or no " + attribute);
        }
    }

    private MulticastProtocol multicast(SourceElement at, RawCohort.RawMulticast raw, BindAddressCheck transportAddress)
            throws ConfigException {
        transportAddress.checkGroup(at, "bind-addr", raw.bindAddr);
        return new MulticastProtocol(multicastIp(at, raw.ip), at.integer("port", raw.port), raw.bindAddr, at.integer("ttl", raw.ttl), stack(at, raw.stack),
                at.integer("batch-size", raw.batchSize), at.duration("flush-interval", raw.flushInterval));
    }

    /** An IP literal (read by {@link IpLiteral}, never looked up) that {@link InetAddress#isMulticastAddress() is a multicast address}. */
    private static String multicastIp(SourceElement at, String value) throws ConfigException {
        String ip = value.trim();
        InetAddress address = IpLiteral.parse(ip);
        boolean multicast = address != null && address.isMulticastAddress();
        if (!multicast) {
            throw at.attributeError("ip", "invalid value ip=\"" + value + "\" on " + at.tag() + ": no multicast IP address",
                    "a multicast IP address (224.0.0.0 to 239.255.255.255, or IPv6 ff00::/8)");
        }
        return ip;
    }

    private DatabaseProtocol database(SourceElement at, RawCohort.RawDatabase raw) throws ConfigException {
        DataSourceConfig connection;
        if (raw.dataSource != null && raw.url != null) {
            throw at.attributeError("url", "both data-source and url on " + at.tag(), "data-source (a declared <datasource>) or url, not both");
        } else if (raw.dataSource != null) {
            onlyWithUrl(at, "user", raw.user, raw.dataSource);
            onlyWithUrl(at, "password-env", raw.passwordEnv, raw.dataSource);
            onlyWithUrl(at, "password-file", raw.passwordFile, raw.dataSource);
            connection = declared(at, raw.dataSource);
        } else if (raw.url != null) {
            RawCohort.RawDataSource defaults = new RawCohort.RawDataSource();
            connection = new DataSourceConfig(DatabaseProtocol.INLINE_CONNECTION_NAME, raw.url, Optional.ofNullable(raw.user),
                    secrets.optional(at, "password-env", raw.passwordEnv, "password-file", raw.passwordFile),
                    Integer.parseInt(defaults.maxPoolSize), ConfigDuration.parse(defaults.connectionTimeout));
        } else {
            throw at.error("missing attribute data-source or url on " + at.tag(),
                    "data-source=\"<name of a <datasource>>\" or url=\"jdbc:...\"");
        }
        return new DatabaseProtocol(connection, raw.tablePrefix, at.integer("batch-size", raw.batchSize),
                at.duration("flush-interval", raw.flushInterval));
    }

    private static void onlyWithUrl(SourceElement at, String attribute, String value, String dataSource) throws ConfigException {
        if (value != null) {
            throw at.attributeError(attribute, "attribute " + attribute + " on " + at.tag() + " applies only with url, not with data-source",
                    "the user and password on the <datasource> named \"" + dataSource + "\"");
        }
    }

    private DataSourceConfig declared(SourceElement at, String name) throws ConfigException {
        return dataSources.stream().filter(ds -> ds.name().equals(name)).findFirst().orElseThrow(() -> at.attributeError("data-source",
                "data-source=\"" + name + "\" on " + at.tag() + " names no declared <datasource>",
                dataSources.isEmpty() ? "a <datasource name=\"" + name + "\" .../> before <cluster>"
                        : "one of " + dataSources.stream().map(DataSourceConfig::name).collect(Collectors.joining(", "))));
    }

    private Optional<Path> stack(SourceElement at, String stack) throws ConfigException {
        if (stack == null) {
            return Optional.empty();
        }
        Path file = at.path("stack", stack, baseDir);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
            throw at.attributeError("stack", "JGroups stack file " + file + " (stack on " + at.tag() + ") does not exist or is not readable",
                    "a readable JGroups stack XML file");
        }
        return Optional.of(file);
    }
}
