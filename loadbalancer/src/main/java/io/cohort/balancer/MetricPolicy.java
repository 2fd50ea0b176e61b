package io.cohort.balancer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * {@code metric}, {@code metric:local}: the live member with the most spare capacity, as its last
 * health answer reported it ({@code load.spareCapacity}, 0 to 1; 0 after a timeout excused as busy,
 * {@link Backend#excuseIfLate}, and after an answer that was not 2xx), shared by the requests it is already serving
 * through this balancer:
 * {@code (spare + }{@value #BACKLOG_WEIGHT}{@code ) / (1 + in flight)}, so a burst between two health checks does not
 * all land on one member, and members that report no spare capacity (all saturated, or none reported yet) are still
 * told apart by their backlog. Equal scores go to the member with fewer requests in flight, then in turn: the next
 * search starts after the member chosen, so members down are skipped without giving the member after them their
 * turns too.
 */
final class MetricPolicy implements RoutePolicy {

    /**
     * Spare capacity every member counts as having besides what it reported: small against any capacity a member
     * reports, so spare capacity decides between members that have some, but not zero, so that between members that
     * report none the one with fewer requests in flight wins.
     */
    static final double BACKLOG_WEIGHT = 0.01;

    private final MemberGroups groups;
    /** Per group (local, all): the index to start the next search at. */
    private final AtomicInteger[] cursors;

    MetricPolicy(MemberGroups groups, RandomGenerator random) {
        this.groups = groups;
        this.cursors = new AtomicInteger[] {
                new AtomicInteger(groups.local.length == 0 ? 0 : random.nextInt(groups.local.length)),
                new AtomicInteger(random.nextInt(groups.all.length))};
    }

    private final GroupChooser inGroup = this::chooseIn;

    @Override
    public Backend choose(Backend excluded) {
        return groups.choose(excluded, inGroup);
    }

    private Backend chooseIn(int index, Backend excluded) {
        Backend[] group = groups.group(index);
        int n = group.length;
        AtomicInteger cursor = cursors[index];
        int start = cursor.get();
        int bestAt = -1;
        double bestScore = -1;
        int bestInFlight = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            int at = (start + i) % n;
            Backend candidate = group[at];
            if (!candidate.eligible(excluded)) {
                continue;
            }
            int inFlight = candidate.inFlight();
            double score = (candidate.spareCapacity() + BACKLOG_WEIGHT) / (1 + inFlight);
            if (score > bestScore || (score == bestScore && inFlight < bestInFlight)) {
                bestAt = at;
                bestScore = score;
                bestInFlight = inFlight;
            }
        }
        if (bestAt < 0) {
            return null;
        }
        // a concurrent choice that moved the cursor first wins; this one stands either way
        cursor.compareAndSet(start, (bestAt + 1) % n);
        return group[bestAt];
    }
}
