package io.cohort.cli.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A replication policy in the study's notation (PAPER.md): {@code ABCD} = protocol (1 multicast,
 * 2 peer, 3 database), trigger (1 onSetAttribute, 2 onRequestEnd, 3 onShutdown), scope
 * (1 modifiedAttributes, 2 allAttributes), delivery (1 async, 2 sync), optionally followed by
 * {@code wqN} for write-quota N (default 1) and by {@code bN} for a group protocol's {@code batch-size}
 * N (how many queued asynchronous changes may share one group message; {@code b1} sends each alone;
 * default: the protocol's) and by {@code fN} for its {@code flush-interval} in milliseconds (how long a
 * busy send lane gathers changes for one message; {@code f0}: only what is queued; default: the
 * protocol's) and by {@code sN} for the group's {@link GroupSecurity} ({@code s2}, the default: members
 * authenticate and traffic is encrypted, over TLS with the peer protocol; {@code s1}: authenticated, not encrypted;
 * {@code s0}: neither, as in the study; {@code s3}: peer only, over TLS with the key derived from the secret;
 * {@code s4}: payload encryption and sealed frames, without TLS); or {@code none} for no replication. {@code 2211}, the study's
 * recommendation, is peer · onRequestEnd · modifiedAttributes · asynchronous.
 *
 * @param name the pattern as written
 * @param protocol {@code peer}, {@code multicast} or {@code database}; empty for {@code none}
 * @param trigger the trigger's XML name
 * @param scope the scope's XML name
 * @param synchronous whether delivery is synchronous
 * @param writeQuota copies per session
 * @param batchSize the group protocol's {@code batch-size}; empty: its default
 * @param flushInterval the group protocol's {@code flush-interval}; empty: its default
 * @param security what the group protocol does to protect its traffic
 */
public record ReplicationPattern(String name, Optional<String> protocol, String trigger, String scope,
        boolean synchronous, int writeQuota, Optional<Integer> batchSize, Optional<Duration> flushInterval,
        GroupSecurity security) {

    public static final ReplicationPattern NONE = new ReplicationPattern("none", Optional.empty(), "onRequestEnd",
            "modifiedAttributes", false, 1, Optional.empty(), Optional.empty(), GroupSecurity.ENCRYPTED);
    private static final Pattern SYNTAX =
            Pattern.compile("([123])([123])([12])([12])(?:wq([1-9][0-9]?))?(?:b([1-9][0-9]{0,3}))?(?:f([0-9]{1,4}))?(?:s([0-4]))?");
    private static final String[] PROTOCOLS = {"multicast", "peer", "database"};
    private static final String[] TRIGGERS = {"onSetAttribute", "onRequestEnd", "onShutdown"};
    private static final String[] SCOPES = {"modifiedAttributes", "allAttributes"};

    /** @throws IllegalArgumentException with what is expected, for a pattern that is not one */
    public static ReplicationPattern parse(String text) {
        if (text.equals("none")) {
            return NONE;
        }
        Matcher m = SYNTAX.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("invalid replication pattern '" + text + "'; expected none or ABCD[wqN][bN][fN][sN]: "
                    + "protocol 1 multicast/2 peer/3 database, trigger 1 onSetAttribute/2 onRequestEnd/3 onShutdown, "
                    + "scope 1 modified/2 all, delivery 1 async/2 sync, write-quota N, batch-size N, flush-interval N ms "
                    + "and security N (0 none, 1 authenticated, 2 encrypted (peer: over TLS), 3 TLS, 4 payload encryption without TLS; "
                    + "peer and multicast, 3 peer only), e.g. 2211, 2211wq2, "
                    + "2211b1, 2211f10 or 2211s0");
        }
        String protocol = PROTOCOLS[digit(m, 1)];
        Optional<Integer> batchSize = Optional.ofNullable(m.group(6)).map(Integer::parseInt);
        Optional<Duration> flushInterval = Optional.ofNullable(m.group(7)).map(ms -> Duration.ofMillis(Integer.parseInt(ms)));
        if ((batchSize.isPresent() || flushInterval.isPresent()) && protocol.equals("database")) {
            throw new IllegalArgumentException("invalid replication pattern '" + text + "': bN (batch-size) and fN "
                    + "(flush-interval) belong to the peer and multicast protocols' bundling, not to database's JDBC "
                    + "batching (set that on <database batch-size=... flush-interval=...> in cohort.xml)");
        }
        if (m.group(8) != null && protocol.equals("database")) {
            throw new IllegalArgumentException("invalid replication pattern '" + text + "': sN (security) protects the "
                    + "peer and multicast protocols' group traffic; the database protocol's connection is the data "
                    + "source's business");
        }
        GroupSecurity security = m.group(8) == null ? GroupSecurity.ENCRYPTED
                : GroupSecurity.ofDigit(m.group(8).charAt(0) - '0');
        if (security == GroupSecurity.TLS && !protocol.equals("peer")) {
            throw new IllegalArgumentException("invalid replication pattern '" + text + "': s3 (TLS) needs the peer "
                    + "protocol (2); a multicast group sends UDP datagrams, which TLS cannot carry");
        }
        return new ReplicationPattern(text, Optional.of(protocol), TRIGGERS[digit(m, 2)], SCOPES[digit(m, 3)],
                digit(m, 4) == 1, m.group(5) == null ? 1 : Integer.parseInt(m.group(5)), batchSize, flushInterval,
                security);
    }

    private static int digit(Matcher m, int group) {
        return m.group(group).charAt(0) - '1';
    }

    public boolean replicates() {
        return protocol.isPresent();
    }

    /**
     * Whether the members' connections are TLS: the peer protocol with {@code s2} (the default) or {@code s3}. Their
     * stack then has no socket failure detector (FD_SOCK2), whose port would be outside TLS.
     */
    public boolean overTls() {
        return protocol.filter("peer"::equals).isPresent()
                && (security == GroupSecurity.ENCRYPTED || security == GroupSecurity.TLS);
    }
}
