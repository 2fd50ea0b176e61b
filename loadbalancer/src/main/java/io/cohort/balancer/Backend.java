package io.cohort.balancer;

import io.cohort.config.BalancerMember;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.PreEncodedHttpField;

/**
 * One member as the balancer runs it: its configuration, health, last reported spare capacity,
 * the requests it is serving through this balancer, and its meters. Thread-safe.
 */
final class Backend {

    private final BalancerMember member;
    private final boolean local;
    private final HealthState health;
    private final MemberMeters meters;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final String baseUri;
    /** The {@code X-Cohort-Routed} header for each {@link Router.Reason}, encoded once. */
    private final HttpField[] routedHeaders = new HttpField[Router.Reason.values().length];
    /** {@code load.spareCapacity} of the last health answer, 0 to 1; 0 until the member reports. */
    private volatile double spareCapacity;

    Backend(BalancerMember member, boolean local, HealthState health, BalancerMetrics metrics) {
        this.member = member;
        this.local = local;
        this.health = health;
        String path = member.url().getRawPath() == null ? "" : member.url().getRawPath().replaceAll("/+$", "");
        this.baseUri = member.url().getScheme() + "://" + member.url().getRawAuthority() + path;
        for (Router.Reason reason : Router.Reason.values()) {
            routedHeaders[reason.ordinal()] = new PreEncodedHttpField(BalancerProxy.ROUTED_HEADER, member.name() + "; reason=" + reason.label);
        }
        this.meters = metrics.member(this); // gauges read this backend; it is fully built but for this field
    }

    String name() {
        return member.name();
    }

    BalancerMember member() {
        return member;
    }

    /** Scheme, authority and path prefix of the member, without a trailing '/': a request's path and query follow. */
    String baseUri() {
        return baseUri;
    }

    /** {@code X-Cohort-Routed: <name>; reason=<reason>}. */
    HttpField routedHeader(Router.Reason reason) {
        return routedHeaders[reason.ordinal()];
    }

    /** Whether the member's host is the balancer's host. */
    boolean local() {
        return local;
    }

    int weight() {
        return member.weight();
    }

    HealthState health() {
        return health;
    }

    boolean isUp() {
        return health.isUp();
    }

    MemberMeters meters() {
        return meters;
    }

    double spareCapacity() {
        return spareCapacity;
    }

    void spareCapacity(double value) {
        spareCapacity = Math.min(1, Math.max(0, value));
    }

    int inFlight() {
        return inFlight.get();
    }

    void requestStarted() {
        inFlight.incrementAndGet();
    }

    void requestEnded() {
        inFlight.decrementAndGet();
    }

    /** Up and not the member a retry moves away from. */
    boolean eligible(Backend excluded) {
        return this != excluded && health.isUp();
    }

    @Override
    public String toString() {
        return member.name();
    }
}
