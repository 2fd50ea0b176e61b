package io.cohort.bench.peers;

/** Which balancer a system under test has in front of its nodes. */
public enum FrontKind {
    /** Cohort's own balancer, in the bench process, policy {@code roundrobin}, sticky on the session route. */
    COHORT_BALANCER,
    /** HAProxy (Debian package {@code haproxy}) as a child process, {@code roundrobin}, sticky on the route. */
    HAPROXY;

    /** The front's name in descriptions: {@code cohort-balancer}, {@code haproxy}. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
