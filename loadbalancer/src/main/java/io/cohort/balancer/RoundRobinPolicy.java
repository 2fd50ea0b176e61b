package io.cohort.balancer;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;

/**
 * {@code roundrobin}, {@code roundrobin:local}, {@code roundrobin:weighted}: members in
 * configuration order from a random starting point, each live one in turn, dead ones skipped (the
 * next request goes to the member after the one chosen, so live members share evenly). Weighted, a
 * member takes as many turns per cycle as its weight, interleaved with the others ("smooth"
 * weighted round robin: weights 5, 1, 1 give a a b a c a a, not a a a a a b c), and the cycle too
 * begins at a random one of its turns: several balancers in front of the same members do not send
 * their first requests to the same member, as they would if each began its cycle at the start.
 */
final class RoundRobinPolicy implements RoutePolicy {

    /**
     * Most turns run to reach a weighted cycle's random starting point: a cycle is as long as the sum of its
     * members' weights, and each turn costs a look at every member. Cycles up to this long begin at any of their
     * turns; longer ones at one of their first this many.
     */
    private static final int MAX_START_TURNS = 1 << 16;

    private final MemberGroups groups;
    private final boolean weighted;
    /** Per group (local, all): the index to start the next search at. */
    private final AtomicInteger[] cursors;
    /** Per group: the running weights of smooth weighted round robin; guarded by the array. */
    private final int[][] current;

    RoundRobinPolicy(MemberGroups groups, boolean weighted, RandomGenerator random) {
        this.groups = groups;
        this.weighted = weighted;
        this.cursors = new AtomicInteger[] {
                new AtomicInteger(groups.local.length == 0 ? 0 : random.nextInt(groups.local.length)),
                new AtomicInteger(random.nextInt(groups.all.length))};
        this.current = new int[][] {new int[groups.local.length], new int[groups.all.length]};
        if (weighted) {
            startAtRandomTurn(groups.local, current[0], random);
            startAtRandomTurn(groups.all, current[1], random);
        }
    }

    /**
     * Moves a weighted group's cycle to a turn drawn uniformly from its first {@code min(sum of weights,
     * MAX_START_TURNS)}, by taking that many turns among the live members: each member is then first with a
     * chance in proportion to its weight.
     */
    private static void startAtRandomTurn(Backend[] group, int[] current, RandomGenerator random) {
        long cycle = 0;
        for (Backend b : group) {
            cycle += b.weight();
        }
        if (cycle == 0) {
            return;
        }
        int turns = random.nextInt((int) Math.min(cycle, MAX_START_TURNS));
        for (int i = 0; i < turns; i++) {
            weighted(group, current, null);
        }
    }

    private final GroupChooser inGroup = this::chooseIn;

    @Override
    public Backend choose(Backend excluded) {
        return groups.choose(excluded, inGroup);
    }

    private Backend chooseIn(int index, Backend excluded) {
        Backend[] group = groups.group(index);
        return weighted ? weighted(group, current[index], excluded) : inTurn(group, cursors[index], excluded);
    }

    private static Backend inTurn(Backend[] group, AtomicInteger cursor, Backend excluded) {
        int n = group.length;
        while (true) {
            int start = cursor.get();
            for (int i = 0; i < n; i++) {
                int candidate = (start + i) % n;
                if (group[candidate].eligible(excluded)) {
                    if (cursor.compareAndSet(start, (candidate + 1) % n)) {
                        return group[candidate];
                    }
                    break; // another request moved the cursor: search again from its new position
                }
                if (i == n - 1) {
                    return null;
                }
            }
        }
    }

    private static Backend weighted(Backend[] group, int[] current, Backend excluded) {
        synchronized (current) {
            Backend best = null;
            int bestIndex = -1;
            int total = 0;
            for (int i = 0; i < group.length; i++) {
                if (!group[i].eligible(excluded)) {
                    continue;
                }
                current[i] += group[i].weight();
                total += group[i].weight();
                if (best == null || current[i] > current[bestIndex]) {
                    best = group[i];
                    bestIndex = i;
                }
            }
            if (best != null) {
                current[bestIndex] -= total;
            }
            return best;
        }
    }
}
