package io.cohort.config;

/**
 * How the load balancer picks a member for a request that no live member owns: the eight policies
 * of Oracle HTTP Server's mod_oc4j, by their directive spellings (PAPER.md, "Load balancer").
 * "Local" members are those whose configured host equals the balancer's host (ignoring case); with no live local
 * member, the local policies spread over the others. Weights are per host ({@code <weight>}) or per
 * member.
 */
public enum Policy {
    /** Any live member, uniformly at random. */
    RANDOM("random", Family.RANDOM, false, false),
    /** Members in turn from a random starting point, skipping dead ones. */
    ROUND_ROBIN("roundrobin", Family.ROUND_ROBIN, false, false),
    /** {@link #RANDOM} over the live local members, else over all live members. */
    RANDOM_LOCAL("random:local", Family.RANDOM, true, false),
    /** {@link #ROUND_ROBIN} over the live local members, else over all live members; the default. */
    ROUND_ROBIN_LOCAL("roundrobin:local", Family.ROUND_ROBIN, true, false),
    /** Random, each member drawn in proportion to its weight. */
    RANDOM_WEIGHTED("random:weighted", Family.RANDOM, false, true),
    /** Round robin in which each member takes as many turns as its weight, interleaved. */
    ROUND_ROBIN_WEIGHTED("roundrobin:weighted", Family.ROUND_ROBIN, false, true),
    /** The live member that reports the most spare capacity in its health answer. */
    METRIC("metric", Family.METRIC, false, false),
    /** {@link #METRIC} over the live local members, else over all live members. */
    METRIC_LOCAL("metric:local", Family.METRIC, true, false);

    /** The way members are drawn; the other two properties narrow or bias the draw. */
    public enum Family { RANDOM, ROUND_ROBIN, METRIC }

    private final String xmlName;
    private final Family family;
    private final boolean local;
    private final boolean weighted;

    Policy(String xmlName, Family family, boolean local, boolean weighted) {
        this.xmlName = xmlName;
        this.family = family;
        this.local = local;
        this.weighted = weighted;
    }

    /** The spelling used in configuration files, e.g. {@code roundrobin:local}. */
    public String xmlName() {
        return xmlName;
    }

    public Family family() {
        return family;
    }

    /** Whether live members on the balancer's own host are preferred. */
    public boolean local() {
        return local;
    }

    /** Whether members are drawn in proportion to their weights. */
    public boolean weighted() {
        return weighted;
    }

    /**
     * The constant spelled {@code xmlName} in configuration files.
     *
     * @throws IllegalArgumentException for any other spelling
     */
    public static Policy fromXml(String xmlName) {
        for (Policy value : values()) {
            if (value.xmlName.equals(xmlName)) {
                return value;
            }
        }
        throw new IllegalArgumentException("unknown policy " + xmlName + "; expected one of random, roundrobin, random:local, "
                + "roundrobin:local, random:weighted, roundrobin:weighted, metric, metric:local");
    }
}
