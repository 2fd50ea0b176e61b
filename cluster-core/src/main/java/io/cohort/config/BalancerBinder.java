package io.cohort.config;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The {@code <balancer>} part of {@link ConfigBinder}, with the checks the schema cannot express:
 * member names and weight hosts are unique, every {@code <weight>} names a host some member has,
 * URLs parse with a host and a port from 1 to 65535, the session cookie is not the backup cookie, and the proxy and
 * the admin endpoint do not share a port on one address.
 */
final class BalancerBinder {

    private final BindAddressCheck bindAddresses;

    BalancerBinder(BindAddressCheck bindAddresses) {
        this.bindAddresses = bindAddresses;
    }

    BalancerConfig bind(SourceElement at, RawCohort.RawBalancer raw) throws ConfigException {
        bindAddresses.check(at, "bind-addr", raw.bindAddr);
        bindAddresses.check(at, "admin-bind-addr", raw.adminBindAddr);
        RawCohort.RawHealth rawHealth = raw.health == null ? new RawCohort.RawHealth() : raw.health;
        SourceElement healthAt = at.child("health");
        HealthCheckConfig health = new HealthCheckConfig(rawHealth.path, healthAt.duration("interval", rawHealth.interval),
                healthAt.duration("timeout", rawHealth.timeout), healthAt.integer("fall", rawHealth.fall),
                healthAt.integer("rise", rawHealth.rise));
        ClientLimitsConfig clientLimits = clientLimits(at.child("client-limits"),
                raw.clientLimits == null ? new RawCohort.RawClientLimits() : raw.clientLimits);
        if (BalancerConfig.BACKUP_COOKIE.equals(raw.sessionCookie)) {
            throw at.attributeError("session-cookie", "session-cookie=\"" + raw.sessionCookie + "\" on " + at.tag()
                    + " is the cookie in which nodes name the backup holders", "another cookie name, e.g. JSESSIONID");
        }
        Map<String, Integer> hostWeights = hostWeights(at, raw);
        List<BalancerMember> members = members(at, raw, health, hostWeights);
        int port = at.integer("port", raw.port);
        int adminPort = at.integer("admin-port", raw.adminPort);
        checkDistinctPorts(at, raw, port, adminPort);
        return new BalancerConfig(raw.name, raw.host, raw.bindAddr, port, raw.adminBindAddr, adminPort,
                at.convert("policy", raw.policy, Policy::fromXml), raw.sessionCookie,
                at.duration("connect-timeout", raw.connectTimeout), at.duration("request-timeout", raw.requestTimeout),
                at.duration("idle-timeout", raw.idleTimeout), at.size("max-request-body", raw.maxRequestBody),
                maxHeaderSize(at, raw.maxHeaderSize), memberLimits(at, raw), at.duration("graceful-stop", raw.gracefulStop), health,
                clientLimits, members,
                hostWeights, AddressRanges.parse(at, "trusted-proxies", raw.trustedProxies));
    }

    /**
     * The health and metrics endpoint cannot listen where the proxy does: the balancer would fail to bind at start.
     * Addresses are compared as {@link BindAddresses} do; 0 (a free port each) never clashes. The error points at
     * admin-port when it is written, else at port.
     */
    private static void checkDistinctPorts(SourceElement at, RawCohort.RawBalancer raw, int port, int adminPort)
            throws ConfigException {
        if (port == 0 || port != adminPort || !BindAddresses.overlap(raw.bindAddr, raw.adminBindAddr)) {
            return;
        }
        if (at.written("admin-port")) {
            throw at.attributeError("admin-port", "admin-port=\"" + adminPort + "\" on " + at.tag()
                    + " is the balancer's port on the same address", "another port than " + port);
        }
        throw at.attributeError("port", "port=\"" + port + "\" on " + at.tag()
                + " is the admin port (admin-port left out: its default) on the same address",
                "another port than " + adminPort + ", or admin-port=\"...\"");
    }

    private static ClientLimitsConfig clientLimits(SourceElement at, RawCohort.RawClientLimits raw) throws ConfigException {
        String perAddress = raw.maxConnectionsPerAddress.trim();
        return new ClientLimitsConfig(at.duration("header-timeout", raw.headerTimeout), at.integer("max-connections", raw.maxConnections),
                perAddress.equals("unlimited") ? OptionalInt.empty()
                        : OptionalInt.of(at.integer("max-connections-per-address", perAddress)),
                requestRate(at, raw));
    }

    /** {@code max-request-rate} and {@code request-burst}; the burst defaults to one second's worth of requests. */
    private static Optional<ClientLimitsConfig.RequestRate> requestRate(SourceElement at, RawCohort.RawClientLimits raw)
            throws ConfigException {
        String rate = raw.maxRequestRate.trim();
        if (rate.equals("unlimited")) {
            if (raw.requestBurst != null) {
                throw at.attributeError("request-burst", "request-burst=\"" + raw.requestBurst + "\" on " + at.tag()
                        + " has no rate to burst above", "max-request-rate=\"N\" beside it, or no request-burst");
            }
            return Optional.empty();
        }
        int perSecond = at.integer("max-request-rate", rate);
        int burst = raw.requestBurst == null ? perSecond : at.integer("request-burst", raw.requestBurst);
        return Optional.of(new ClientLimitsConfig.RequestRate(perSecond, burst));
    }

    private static MemberLimitsConfig memberLimits(SourceElement at, RawCohort.RawBalancer raw) throws ConfigException {
        return new MemberLimitsConfig(at.integer("max-connections", raw.maxConnections),
                at.integer("max-queued-per-member", raw.maxQueuedPerMember), maxMemberHeaderSize(at, raw.maxMemberHeaderSize));
    }

    /** From {@link MemberLimitsConfig#MIN_HEADER_SIZE} to {@link MemberLimitsConfig#MAX_HEADER_SIZE}, refused at the attribute otherwise. */
    private static DataSize maxMemberHeaderSize(SourceElement at, String value) throws ConfigException {
        DataSize size = at.size("max-member-header-size", value);
        if (size.compareTo(MemberLimitsConfig.MIN_HEADER_SIZE) < 0 || size.compareTo(MemberLimitsConfig.MAX_HEADER_SIZE) > 0) {
            throw at.attributeError("max-member-header-size", "max-member-header-size=\"" + value + "\" on " + at.tag()
                    + " is out of range", "a size from " + MemberLimitsConfig.MIN_HEADER_SIZE + " to " + MemberLimitsConfig.MAX_HEADER_SIZE);
        }
        return size;
    }

    private static DataSize maxHeaderSize(SourceElement at, String value) throws ConfigException {
        DataSize size = at.size("max-header-size", value);
        if (size.bytes() < 256 || size.bytes() > Integer.MAX_VALUE) {
            throw at.attributeError("max-header-size", "max-header-size=\"" + value + "\" on " + at.tag() + " is out of range",
                    "a size from 256B to 2GiB");
        }
        return size;
    }

    private static Map<String, Integer> hostWeights(SourceElement at, RawCohort.RawBalancer raw) throws ConfigException {
        Set<String> memberHosts = raw.members.stream().map(m -> m.host).collect(Collectors.toSet());
        Map<String, Integer> weights = new LinkedHashMap<>();
        Map<String, SourceElement> seen = new HashMap<>();
        for (int i = 0; i < raw.weights.size(); i++) {
            RawCohort.RawWeight weight = raw.weights.get(i);
            SourceElement weightAt = at.child("weight", i);
            SourceElement first = seen.putIfAbsent(weight.host, weightAt);
            if (first != null) {
                throw weightAt.attributeError("host", "duplicate weight for host \"" + weight.host + "\"",
                        "a host not weighted by the <weight> at " + first.position());
            }
            if (!memberHosts.contains(weight.host)) {
                throw weightAt.attributeError("host", "host=\"" + weight.host + "\" on <weight> is the host of no <balancer-member>",
                        "one of " + String.join(", ", new TreeSet<>(memberHosts)));
            }
            weights.put(weight.host, weightAt.integer("value", weight.value));
        }
        return weights;
    }

    private static List<BalancerMember> members(SourceElement at, RawCohort.RawBalancer raw, HealthCheckConfig health,
                                                Map<String, Integer> hostWeights) throws ConfigException {
        List<BalancerMember> members = new ArrayList<>();
        Map<String, SourceElement> seen = new HashMap<>();
        for (int i = 0; i < raw.members.size(); i++) {
            RawCohort.RawBalancerMember member = raw.members.get(i);
            SourceElement memberAt = at.child("balancer-member", i);
            SourceElement first = seen.putIfAbsent(member.name, memberAt);
            if (first != null) {
                throw memberAt.attributeError("name", "duplicate member name \"" + member.name + "\"",
                        "a name not used by the <balancer-member> at " + first.position());
            }
            URI url = httpUrl(memberAt, "url", member.url, "http://127.0.0.1:8081");
            URI healthUrl = member.healthUrl == null ? withPath(memberAt, url, health.path())
                    : httpUrl(memberAt, "health-url", member.healthUrl, "http://127.0.0.1:9081/health");
            int weight = member.weight != null ? memberAt.integer("weight", member.weight) : hostWeights.getOrDefault(member.host, 1);
            members.add(new BalancerMember(member.name, member.host, url, healthUrl, weight));
        }
        return members;
    }

    /**
     * A URL the balancer can reach: it has a host, as {@link URI} reads it (the schema has already refused a host with
     * '_', in which URI finds none), and no port or one from 1 to 65535 (URI takes any digits).
     */
    private static URI httpUrl(SourceElement at, String attribute, String value, String example) throws ConfigException {
        URI uri = at.convert(attribute, value, URI::create);
        if (uri.getHost() == null) {
            throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " names no host",
                    "an http:// or https:// URL with a host, e.g. " + example);
        }
        if (uri.getPort() == 0 || uri.getPort() > BalancerMember.MAX_PORT) {
            throw at.attributeError(attribute, attribute + "=\"" + value + "\" on " + at.tag() + " has port " + uri.getPort(),
                    "a port from 1 to " + BalancerMember.MAX_PORT + ", or none for the scheme's default");
        }
        return uri;
    }

    /** The member's scheme and authority with the health path. */
    private static URI withPath(SourceElement at, URI url, String path) throws ConfigException {
        return at.convert("url", url.toString(), u -> URI.create(url.getScheme() + "://" + url.getRawAuthority() + path));
    }
}
