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
 * URLs parse, and the session cookie is not the backup cookie.
 */
final class BalancerBinder {

    BalancerConfig bind(SourceElement at, RawCohort.RawBalancer raw) throws ConfigException {
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
        return new BalancerConfig(raw.name, raw.host, raw.bindAddr, at.integer("port", raw.port), raw.adminBindAddr,
                at.integer("admin-port", raw.adminPort), at.convert("policy", raw.policy, Policy::fromXml), raw.sessionCookie,
                at.duration("connect-timeout", raw.connectTimeout), at.duration("request-timeout", raw.requestTimeout),
                at.duration("idle-timeout", raw.idleTimeout), at.size("max-request-body", raw.maxRequestBody),
                maxHeaderSize(at, raw.maxHeaderSize), at.integer("max-connections", raw.maxConnections), at.duration("graceful-stop", raw.gracefulStop), health,
                clientLimits, members,
                hostWeights, AddressRanges.parse(at, "trusted-proxies", raw.trustedProxies));
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
            URI url = memberAt.convert("url", member.url, URI::create);
            URI healthUrl = member.healthUrl == null ? withPath(memberAt, url, health.path())
                    : memberAt.convert("health-url", member.healthUrl, URI::create);
            int weight = member.weight != null ? memberAt.integer("weight", member.weight) : hostWeights.getOrDefault(member.host, 1);
            members.add(new BalancerMember(member.name, member.host, url, healthUrl, weight));
        }
        return members;
    }

    /** The member's scheme and authority with the health path. */
    private static URI withPath(SourceElement at, URI url, String path) throws ConfigException {
        return at.convert("url", url.toString(), u -> URI.create(url.getScheme() + "://" + url.getRawAuthority() + path));
    }
}
