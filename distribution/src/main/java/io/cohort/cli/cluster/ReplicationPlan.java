package io.cohort.cli.cluster;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * How the nodes of a local cluster replicate sessions: the {@link ReplicationPattern}, the
 * replication port of each node (peer: each node's TCP port, every node lists all of them;
 * multicast: the group's UDP port is the first), all on loopback, and a cluster secret (handed to
 * the nodes in an environment variable) so that members authenticate and traffic is encrypted (unless the
 * pattern's {@link GroupSecurity} asks for less).
 * The database protocol keeps sessions in the shop's database ({@code jdbc/jpetstore}).
 *
 * @param pattern the policy
 * @param ports one replication port per node, in node order
 */
public record ReplicationPlan(ReplicationPattern pattern, List<Integer> ports) {

    /** The environment variable through which nodes receive the cluster secret. */
    public static final String SECRET_ENV = "COHORT_CLUSTER_SECRET";
    /** Multicast group of local clusters (administratively scoped). */
    static final String MULTICAST_GROUP = "239.255.42.99";

    public ReplicationPlan {
        Objects.requireNonNull(pattern, "pattern");
        ports = List.copyOf(ports);
    }

    /** Whether the nodes form a JGroups group (peer or multicast replication). */
    boolean formsGroup() {
        return pattern.replicates() && !usesDatabase();
    }

    /** Whether sessions go to the shop's database (pattern 3xxx) rather than to other members. */
    boolean usesDatabase() {
        return pattern.protocol().filter("database"::equals).isPresent();
    }

    /** Whether the nodes need the cluster secret in {@link #SECRET_ENV}: they form a group whose pattern secures it. */
    boolean usesSecret() {
        return formsGroup() && pattern.security().usesSecret();
    }

    /** The {@code <cluster>} element of node {@code index} (0-based), or nothing without replication. */
    String configXml(String clusterName, int index) {
        if (!pattern.replicates()) {
            return "";
        }
        String delivery = pattern.synchronous() ? "<synchronous-replication timeout=\"2s\"/>" : "";
        return """
                <cluster name="%s" write-quota="%d" cache-miss-delay="1000ms">
                    <replication-policy trigger="%s" scope="%s"/>
                    %s
                    <protocol>
                      %s
                    </protocol>
                    %s
                  </cluster>""".formatted(clusterName, pattern.writeQuota(), pattern.trigger(), pattern.scope(),
                delivery, protocolXml(index), securityXml());
    }

    private String securityXml() {
        if (!formsGroup()) {
            return ""; // the database protocol's members talk only to the database: no cluster secret
        }
        return switch (pattern.security()) {
            case NONE -> "";
            case AUTHENTICATED -> "<security secret-env=\"" + SECRET_ENV + "\" encrypt=\"false\"/>";
            case ENCRYPTED -> "<security secret-env=\"" + SECRET_ENV + "\"/>";
            case TLS -> "<security secret-env=\"" + SECRET_ENV + "\" tls=\"true\"/>";
            case PAYLOAD_ENCRYPTED -> "<security secret-env=\"" + SECRET_ENV + "\" tls=\"false\"/>";
        };
    }

    private String protocolXml(int index) {
        if (usesDatabase()) {
            return "<database data-source=\"" + ShopDatabase.JNDI_NAME + "\"/>";
        }
        String tuning = pattern.batchSize().map(n -> " batch-size=\"" + n + "\"").orElse("")
                + pattern.flushInterval().map(d -> " flush-interval=\"" + d.toMillis() + "ms\"").orElse("");
        if (pattern.protocol().orElseThrow().equals("multicast")) {
            return "<multicast ip=\"%s\" port=\"%d\" bind-addr=\"127.0.0.1\"%s/>".formatted(MULTICAST_GROUP, ports.get(0),
                    tuning);
        }
        String members = ports.stream().map(p -> "<member host=\"127.0.0.1\" port=\"" + p + "\"/>")
                .collect(Collectors.joining("\n        "));
        return """
                <peer bind-addr="127.0.0.1" start-port="%d" range="1" timeout="1s"%s>
                        %s
                      </peer>""".formatted(ports.get(index), tuning, members);
    }
}
