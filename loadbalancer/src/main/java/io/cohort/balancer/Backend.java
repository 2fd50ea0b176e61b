package io.cohort.balancer;

import io.cohort.config.BalancerMember;
import java.net.SocketTimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One member as the balancer runs it: its configuration, health, last reported spare capacity,
 * the requests it is serving through this balancer, when it last began an answer, and its meters.
 * Thread-safe.
 */
final class Backend {

    private static final Logger LOG = LoggerFactory.getLogger(Backend.class);

    private final String balancerName;
    private final BalancerMember member;
    private final boolean local;
    private final HealthState health;
    private final MemberMeters meters;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final String baseUri;
    /** The {@code X-Cohort-Routed} header for each {@link Router.Reason}, encoded once. */
    private final HttpField[] routedHeaders = new HttpField[Router.Reason.values().length];
    /**
     * {@code load.spareCapacity} of the last health answer, 0 to 1; 0 until the member reports, after a non-2xx
     * answer, and from a timeout excused as busy ({@link #excuseIfLate}) until it reports again.
     */
    private volatile double spareCapacity;
    /** {@link System#nanoTime()} when the member last began an answer to a proxied request; long ago until it does. */
    private volatile long lastAnswerNanos = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
    private final AtomicBoolean lateLogged = new AtomicBoolean();
    /** {@link System#nanoTime()} when an uncertain connect failure last counted as a failed check; none yet: null. */
    private final AtomicReference<Long> uncertainCountedAt = new AtomicReference<>();

    /**
     * @throws IllegalArgumentException when the member's url has a path: requests keep theirs, and nothing in the
     *         answers (cookie paths, redirects, links) would be rewritten for a prefix, so such a member is refused
     *         rather than served wrongly (a configuration file refuses it earlier, at its line)
     */
    Backend(String balancerName, BalancerMember member, boolean local, HealthState health, BalancerMetrics metrics) {
        String path = member.url().getRawPath();
        if (path != null && !path.isEmpty() && !path.equals("/")) {
            throw new IllegalArgumentException("member " + member.name() + ": url " + member.url() + " has a path; a member url is "
                    + "scheme, host and port (the balancer rewrites no path prefix), e.g. " + member.url().getScheme() + "://"
                    + member.url().getRawAuthority());
        }
        this.balancerName = balancerName;
        this.member = member;
        this.local = local;
        this.health = health;
        this.baseUri = member.url().getScheme() + "://" + member.url().getRawAuthority();
        for (Router.Reason reason : Router.Reason.values()) {
            routedHeaders[reason.ordinal()] = new PreEncodedHttpField(BalancerProxy.ROUTED_HEADER, member.name() + "; reason=" + reason.label);
        }
        this.meters = metrics.member(this); // gauges read this backend; it is fully built but for this field
    }

    String name() {
        return member.name();
    }

    /**
     * {@code "<balancer> member <member>"}, how log lines name this member: several balancers may run in one process
     * (one per emulated host, as {@code cohort cluster} and the bench start them), each with its own view of the
     * same members.
     */
    String logName() {
        return balancerName + " member " + member.name();
    }

    BalancerMember member() {
        return member;
    }

    /** Scheme and authority of the member, without a trailing '/': a request's path and query follow. */
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

    /**
     * Whether a connect failure that does not tell whether the member is unreachable
     * ({@link Failures.ConnectFailure#UNCERTAIN}) counts now as a failed health check: at most one per {@code interval},
     * as the active checks count, so that concurrent requests failing together (the balancer out of file descriptors,
     * say) count once, not {@code fall} times within milliseconds.
     */
    boolean uncertainFailureCounts(java.time.Duration interval) {
        long now = System.nanoTime();
        Long last = uncertainCountedAt.get();
        return (last == null || now - last >= interval.toNanos()) && uncertainCountedAt.compareAndSet(last, now);
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

    /** The member began an answer to a proxied request just now. */
    void answered() {
        lastAnswerNanos = System.nanoTime();
    }

    /**
     * Whether a health check or connection that failed with {@code failure} is excused as lateness: it timed out, and
     * the member began an answer to a proxied request at or after {@code givenAtNanos} (the {@link System#nanoTime}
     * the check or the request was given at), that is while it waited. Such a member is alive and busy; taking it down
     * would move its sessions and its load onto the other members at the moment they are busy too. But busy it is:
     * an excused failure sets its spare capacity to 0 (as if it had never reported), so the metric policies stop
     * preferring it on the strength of a health answer from before it was saturated; its next health answer reports
     * again. An excused failure is counted ({@code cohort_balancer_late_timeouts_total}) and logged once per member;
     * one that is not excused (refused, reset, or a member answering nothing while it waited) counts against the member
     * as before and leaves its spare capacity as it was; a non-2xx health answer counts against it and sets its spare
     * capacity to 0 ({@link HealthChecker}).
     */
    boolean excuseIfLate(Throwable failure, long givenAtNanos) {
        boolean late = Failures.causedBy(failure, TimeoutException.class, SocketTimeoutException.class)
                && lastAnswerNanos - givenAtNanos >= 0;
        if (late) {
            spareCapacity = 0;
            meters.lateTimeouts.increment();
            if (lateLogged.compareAndSet(false, true)) {
                LOG.info("Balancer {} timed out ({}) while it was answering other requests: kept up, as busy rather "
                        + "than down; later such timeouts are only counted in cohort_balancer_late_timeouts_total",
                        logName(), failure.toString());
            }
        }
        return late;
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
