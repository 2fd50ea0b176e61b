package io.cohort.replication.group;

import io.cohort.config.ClusterConfig;
import io.cohort.config.DataSourceConfig;
import io.cohort.config.Discovery;
import io.cohort.config.MulticastProtocol;
import io.cohort.config.PeerMember;
import io.cohort.config.PeerProtocol;
import io.cohort.config.ProtocolConfig;
import io.cohort.config.Secret;
import io.cohort.config.SecurityConfig;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import org.jgroups.JChannel;
import org.jgroups.conf.ProtocolConfiguration;
import org.jgroups.conf.ProtocolStackConfigurator;
import org.jgroups.conf.XmlConfigurator;
import org.jgroups.protocols.SYM_ENCRYPT;
import org.jgroups.protocols.AUTH;
import org.jgroups.stack.Protocol;
import org.jgroups.util.Util;

/**
 * Builds the JGroups channel for a {@code <cluster>}: the built-in {@code peer-tcp.xml} or
 * {@code multicast-udp.xml} (or the configured {@code stack} file), filled with the configured
 * addresses and ports; DNS or JDBC discovery in place of the static member list when configured; and,
 * with {@code <security>}, AUTH with a {@link SharedSecretToken} below GMS and SYM_ENCRYPT
 * (AES/CTR, a random IV per message) with a key derived from the secret below the reliable-delivery
 * protocols; with {@code <security tls="true">} instead of SYM_ENCRYPT, a TCP transport whose connections are
 * mutually authenticated TLS 1.3 with the key pair of {@link TlsIdentity}, and no FD_SOCK2 (its port is outside
 * TLS). Keys are handed to the protocols in code, never written into the configuration.
 */
final class GroupStack {

    static final String PEER_STACK = "peer-tcp.xml";
    static final String MULTICAST_STACK = "multicast-udp.xml";
    private static final String BUNDLER_TYPE = "cohort.bundler_type";
    private static final String SINGLE_SENDER_THREAD = "bundler.use_single_sender_thread";

    private GroupStack() {
    }

    /**
     * @param tuning values for the stack's placeholders that win over the configuration's (tests use
     *     them for short failure-detection timeouts)
     */
    static JChannel create(ClusterConfig cluster, String nodeName, Map<String, String> tuning,
            Optional<ClusterKeys> keys) throws Exception {
        boolean tls = keys.isPresent() && cluster.security().map(SecurityConfig::tls).orElse(false);
        Map<String, String> values = new HashMap<>(placeholders(cluster.protocol()));
        if (tls && System.getProperty(BUNDLER_TYPE) == null) {
            values.put(BUNDLER_TYPE, "pd"); // a TLS socket blocks when full: sender threads write, not the caller
        }
        values.putAll(tuning);
        String xml = StackTemplate.fill(read(cluster.protocol()), values);
        List<ProtocolConfiguration> configs;
        try (InputStream in = new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))) {
            configs = XmlConfigurator.getInstance(in).getProtocolStack();
        }
        // the blocking TCP transport, if chosen, reads each message into a buffer first (see BufferedTcp); TLS needs it
        configs.replaceAll(config -> config.getProtocolName().equals("TCP") || tls && config.getProtocolName().equals("TCP_NIO2")
                ? new ProtocolConfiguration(BufferedTcp.class.getName(), config.getProperties()) : config);
        if (tls) {
            requireTcpTransport(configs);
            // FD_SOCK2 listens on a port of its own, outside TLS, and reads JGroups messages from whoever connects;
            // the transport's own connections raise the same suspicion when a member's process dies
            configs.removeIf(config -> config.getProtocolName().matches("FD_SOCK2?"));
            // a sender thread per member (JGroups' pd bundler has one for all by default): a member slow to take bytes,
            // or a listed host that never answers the handshake, holds up only the messages to it
            configs.stream().filter(config -> config.getProtocolName().equals(BufferedTcp.class.getName())).findFirst()
                    .ifPresent(transport -> transport.getProperties().putIfAbsent(SINGLE_SENDER_THREAD, "false"));
        }
        if (cluster.protocol() instanceof PeerProtocol peer && peer.stack().isEmpty()) {
            replaceDiscovery(configs, peer);
        }
        boolean encrypt = !tls && keys.isPresent() && cluster.security().map(SecurityConfig::encrypt).orElse(false);
        if (keys.isPresent()) {
            insertBefore(configs, name -> name.endsWith("GMS"), new ProtocolConfiguration("AUTH", new HashMap<>()));
        }
        if (encrypt) {
            // CTR, not CBC: a decryption that fails on bad padding (JGroups drops it silently) beside a forgery that
            // decrypts and is counted as rejected would tell an attacker who reads the metrics about the plaintext
            Map<String, String> cipher = new HashMap<>(Map.of("sym_algorithm", "AES/CTR/NoPadding", "sym_iv_length", "16"));
            insertBefore(configs, name -> name.matches("(pbcast\\.)?(NAKACK[0-9]|UNICAST[0-9])"),
                    new ProtocolConfiguration(CountedSymEncrypt.class.getName(), cipher));
        }
        SharedSecretToken.register();
        ArrivalGuards.install();
        Optional<SSLContext> tlsContext = tls ? Optional.of(TlsIdentity.derive(keys.orElseThrow(), cluster.name()).context())
                : Optional.empty();
        JChannel channel = new JChannel(new KeyingConfigurator(configs, xml, keys, tlsContext));
        channel.name(nodeName);
        return channel;
    }

    static Map<String, String> placeholders(ProtocolConfig protocol) {
        Map<String, String> values = new HashMap<>();
        if (protocol instanceof PeerProtocol peer) {
            values.put("cohort.bind_addr", peer.bindAddress());
            values.put("cohort.bind_port", Integer.toString(peer.startPort()));
            values.put("cohort.port_range", Integer.toString(peer.range() - 1));
            values.put("cohort.tcpping.port_range", Integer.toString(peer.range() - 1));
            values.put("cohort.join_timeout", peer.timeout().toMillis() + "ms");
            List<PeerMember> members = peer.members().isEmpty()
                    ? List.of(new PeerMember(ownAddress(peer.bindAddress()), peer.startPort())) : peer.members();
            values.put("cohort.initial_hosts", members.stream().map(PeerMember::address).collect(Collectors.joining(",")));
        } else if (protocol instanceof MulticastProtocol multicast) {
            values.put("cohort.bind_addr", multicast.bindAddress());
            values.put("cohort.mcast_addr", multicast.ip());
            values.put("cohort.mcast_port", Integer.toString(multicast.port()));
            values.put("cohort.ip_ttl", Integer.toString(multicast.ttl()));
        } else {
            throw new IllegalArgumentException("not a group protocol: " + protocol);
        }
        return values;
    }

    /**
     * The address the transport binds for {@code bindAddress}, resolved as JGroups resolves it: a JGroups word
     * ({@code SITE_LOCAL}, {@code match-interface:eth0}) becomes the address it picks, which TCPPING, resolving its
     * hosts as host names, would not find.
     */
    private static String ownAddress(String bindAddress) {
        InetAddress address;
        try {
            address = Util.getAddress(bindAddress, Util.getIpStackType());
        } catch (Exception e) {
            throw new IllegalArgumentException("bind-addr \"" + bindAddress + "\" names no address of this machine: " + e, e);
        }
        if (address == null) {
            throw new IllegalArgumentException("no address of this machine matches bind-addr \"" + bindAddress + "\"");
        }
        return address.getHostAddress();
    }

    private static String read(ProtocolConfig protocol) throws IOException {
        Optional<Path> custom = protocol instanceof PeerProtocol peer ? peer.stack()
                : ((MulticastProtocol) protocol).stack();
        if (custom.isPresent()) {
            return Files.readString(custom.get(), StandardCharsets.UTF_8);
        }
        String resource = protocol instanceof PeerProtocol ? PEER_STACK : MULTICAST_STACK;
        try (InputStream in = GroupStack.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("built-in stack " + resource + " is missing from the class path");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void replaceDiscovery(List<ProtocolConfiguration> configs, PeerProtocol peer) throws SQLException {
        if (peer.discovery() == Discovery.STATIC) {
            return;
        }
        int index = indexOf(configs, name -> name.equals("TCPPING"));
        Map<String, String> properties = new HashMap<>();
        String protocol;
        if (peer.discovery() == Discovery.DNS) {
            protocol = "dns.DNS_PING";
            properties.put("dns_query", peer.dnsQuery().orElseThrow());
        } else {
            protocol = "JDBC_PING2";
            DataSourceConfig ds = peer.discoveryDataSource().orElseThrow();
            properties.put("connection_url", ds.url());
            properties.put("connection_driver", DriverManager.getDriver(ds.url()).getClass().getName());
            ds.user().ifPresent(user -> properties.put("connection_username", user));
            ds.password().map(Secret::reveal).ifPresent(password -> properties.put("connection_password", password));
        }
        configs.set(index, new ProtocolConfiguration(protocol, properties));
    }

    /** With TLS the transport must be a TCP one: {@code enable_suspect_events} then stands in for FD_SOCK2. */
    private static void requireTcpTransport(List<ProtocolConfiguration> configs) {
        ProtocolConfiguration transport = configs.get(0);
        if (!transport.getProtocolName().equals(BufferedTcp.class.getName())) {
            throw new IllegalArgumentException("<security tls=\"true\"> needs a TCP transport (TCP or TCP_NIO2) at the "
                    + "bottom of the stack, not " + transport.getProtocolName());
        }
        transport.getProperties().putIfAbsent("enable_suspect_events", "true");
    }

    private static void insertBefore(List<ProtocolConfiguration> configs, Predicate<String> neighbour,
            ProtocolConfiguration protocol) {
        configs.add(indexOf(configs, neighbour), protocol);
    }

    private static int indexOf(List<ProtocolConfiguration> configs, Predicate<String> name) {
        for (int i = 0; i < configs.size(); i++) {
            if (name.test(configs.get(i).getProtocolName())) {
                return i;
            }
        }
        throw new IllegalArgumentException("the JGroups stack lacks a protocol Cohort needs to find: "
                + configs.stream().map(ProtocolConfiguration::getProtocolName).toList());
    }

    /**
     * Hands the derived keys to AUTH and SYM_ENCRYPT, and the TLS context to the transport, after JGroups creates
     * them, before they initialize.
     */
    private record KeyingConfigurator(List<ProtocolConfiguration> configs, String text, Optional<ClusterKeys> keys,
            Optional<SSLContext> tls) implements ProtocolStackConfigurator {

        @Override
        public String getProtocolStackString() {
            return text;
        }

        @Override
        public List<ProtocolConfiguration> getProtocolStack() {
            return configs;
        }

        @Override
        public void afterCreation(Protocol protocol) {
            if (keys.isEmpty()) {
                return;
            }
            if (protocol instanceof BufferedTcp tcp && tls.isPresent()) {
                tcp.secureWith(tls.get());
            } else if (protocol instanceof SYM_ENCRYPT encrypt) {
                encrypt.setSecretKey(keys.get().encryptionKey());
            } else if (protocol instanceof AUTH auth) {
                SharedSecretToken token = new SharedSecretToken(keys.get().joinKey());
                token.setAuth(auth);
                auth.setAuthToken(token);
            }
        }
    }
}
