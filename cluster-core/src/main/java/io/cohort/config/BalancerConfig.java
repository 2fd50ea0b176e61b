package io.cohort.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code <balancer>} element: Cohort's HTTP load balancer in front of the nodes. Built by
 * {@link ConfigLoader} from a file, or in code (the {@code cohort cluster} command does).
 *
 * @param name            the balancer's name, the {@code balancer} tag of its metrics and in its log lines
 * @param host            the host it counts as; members with this host are local
 * @param bindAddress     the address the proxy listens on
 * @param port            the proxy port, 0 for a free one
 * @param adminBindAddress the address of the health and metrics endpoint
 * @param adminPort       the port of the health and metrics endpoint, 0 for a free one
 * @param policy          how requests without a live sticky member are routed
 * @param sessionCookie   the session cookie carrying {@code <id>.<route>}
 * @param connectTimeout  the longest wait for a connection to a member
 * @param requestTimeout  the longest a member may take for a whole exchange
 * @param idleTimeout     how long an idle connection (client or member side) is kept
 * @param maxRequestBody  the largest request body accepted
 * @param maxHeaderSize   the largest request head (request line and headers) accepted
 * @param memberLimits    what the balancer holds for each member: its connections, the requests waiting for one of
 *                        them, the largest head of its answers
 * @param gracefulStop    how long a stop lets requests in flight finish; zero stops at once
 * @param health          the active health checks
 * @param clientLimits    the deadline for a client's request head, the caps on client connections and on each client's request rate
 * @param members         the members, in file order (round robin follows it); names unique
 * @param hostWeights     the per-host weights of {@code <weight>} elements, already applied to
 *                        {@link BalancerMember#weight()}
 * @param trustedProxies  the addresses and CIDR ranges of proxies in front of the balancer (a TLS terminator)
 *                        whose {@code X-Forwarded-*} headers it believes; empty: the balancer is the edge
 */
public record BalancerConfig(String name, String host, String bindAddress, int port, String adminBindAddress, int adminPort,
                             Policy policy, String sessionCookie, Duration connectTimeout, Duration requestTimeout,
                             Duration idleTimeout, DataSize maxRequestBody, DataSize maxHeaderSize, MemberLimitsConfig memberLimits,
                             Duration gracefulStop, HealthCheckConfig health, ClientLimitsConfig clientLimits,
                             List<BalancerMember> members,
                             Map<String, Integer> hostWeights, List<String> trustedProxies) {

    /**
     * The cookie in which nodes name the members holding copies of a session: their routes in
     * preference order, separated by '.', e.g. {@code n2.n3}. The balancer sends a request whose
     * owner is down to the first live one.
     */
    public static final String BACKUP_COOKIE = "COHORT_BACKUP";

    public BalancerConfig {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Ports.check("port", port, 0);
        Objects.requireNonNull(adminBindAddress, "adminBindAddress");
        Ports.check("adminPort", adminPort, 0);
        Objects.requireNonNull(policy, "policy");
        Objects.requireNonNull(sessionCookie, "sessionCookie");
        if (sessionCookie.isEmpty() || sessionCookie.equals(BACKUP_COOKIE)) {
            throw new IllegalArgumentException("session cookie must be a non-empty name other than " + BACKUP_COOKIE);
        }
        positive("connectTimeout", connectTimeout);
        positive("requestTimeout", requestTimeout);
        positive("idleTimeout", idleTimeout);
        Objects.requireNonNull(maxRequestBody, "maxRequestBody");
        Objects.requireNonNull(maxHeaderSize, "maxHeaderSize");
        if (maxHeaderSize.bytes() < 256 || maxHeaderSize.bytes() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("maxHeaderSize must be from 256B to 2GiB: " + maxHeaderSize);
        }
        Objects.requireNonNull(memberLimits, "memberLimits");
        Objects.requireNonNull(gracefulStop, "gracefulStop");
        if (gracefulStop.isNegative()) {
            throw new IllegalArgumentException("gracefulStop cannot be negative: " + gracefulStop);
        }
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(clientLimits, "clientLimits");
        members = List.copyOf(members);
        if (members.isEmpty()) {
            throw new IllegalArgumentException("a balancer needs at least one member");
        }
        Set<String> names = new HashSet<>();
        for (BalancerMember member : members) {
            if (!names.add(member.name())) {
                throw new IllegalArgumentException("member names must be unique: " + member.name());
            }
        }
        hostWeights = Map.copyOf(hostWeights);
        trustedProxies = List.copyOf(trustedProxies);
    }

    /**
     * A balancer over {@code members} with every other setting at its schema default, as a
     * {@code <balancer>} that lists only its members would be (ConfigDefaultsTest checks this).
     */
    public static BalancerConfig defaults(List<BalancerMember> members) {
        return new BalancerConfig("balancer", "localhost", "127.0.0.1", 8000, "127.0.0.1", 9000, Policy.ROUND_ROBIN_LOCAL, "JSESSIONID",
                Duration.ofSeconds(2), Duration.ofSeconds(60), Duration.ofSeconds(30), DataSize.parse("10MB"), DataSize.parse("8KiB"),
                MemberLimitsConfig.DEFAULT, Duration.ofSeconds(5), HealthCheckConfig.DEFAULT, ClientLimitsConfig.DEFAULT, members, Map.of(),
                List.of());
    }

    /** This configuration with other ports (0 picks a free one). */
    public BalancerConfig withPorts(int port, int adminPort) {
        return new BalancerConfig(name, host, bindAddress, port, adminBindAddress, adminPort, policy, sessionCookie, connectTimeout,
                requestTimeout, idleTimeout, maxRequestBody, maxHeaderSize, memberLimits, gracefulStop, health, clientLimits, members, hostWeights,
                trustedProxies);
    }

    /** This configuration with another policy and the host it counts as for local affinity. */
    public BalancerConfig withPolicy(Policy policy, String host) {
        return new BalancerConfig(name, host, bindAddress, port, adminBindAddress, adminPort, policy, sessionCookie, connectTimeout,
                requestTimeout, idleTimeout, maxRequestBody, maxHeaderSize, memberLimits, gracefulStop, health, clientLimits, members, hostWeights,
                trustedProxies);
    }

    /** The member whose route is {@code name}. */
    public Optional<BalancerMember> member(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    private static void positive(String what, Duration duration) {
        Objects.requireNonNull(duration, what);
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
    }
}
