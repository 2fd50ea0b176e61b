package io.cohort.balancer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * {@code metric}, {@code metric:local}: the live member with the most spare capacity, as its last
 * health answer reported it ({@code load.spareCapacity}, 0 to 1; 0 after a timeout excused as busy,
 * {@link Backend#excuseIfLate}), shared by the requests it is
 * already serving through this balancer ({@code spare / (1 + in flight)}), so a burst between two
 * health checks does not all land on one member. Ties go round robin; a member that has not
 * reported counts as having no spare capacity.
 */
final class MetricPolicy implements RoutePolicy {

    private final MemberGroups groups;
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
        int start = Math.floorMod(cursors[index].getAndIncrement(), n);
        Backend best = null;
        double bestScore = -1;
        for (int i = 0; i < n; i++) {
            Backend candidate = group[(start + i) % n];
            if (!candidate.eligible(excluded)) {
                continue;
            }
            double score = candidate.spareCapacity() / (1 + candidate.inFlight());
            if (score > bestScore) {
                best = candidate;
                bestScore = score;
            }
        }
        return best;
    }
}
