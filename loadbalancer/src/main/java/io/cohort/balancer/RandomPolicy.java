package io.cohort.balancer;

import java.util.random.RandomGenerator;

/**
 * {@code random}, {@code random:local}, {@code random:weighted}: a live member drawn at random,
 * uniformly or in proportion to the members' weights.
 */
final class RandomPolicy implements RoutePolicy {

    private final MemberGroups groups;
    private final boolean weighted;
    private final RandomGenerator random;

    RandomPolicy(MemberGroups groups, boolean weighted, RandomGenerator random) {
        this.groups = groups;
        this.weighted = weighted;
        this.random = random;
    }

    private final GroupChooser inGroup = this::chooseIn;

    @Override
    public Backend choose(Backend excluded) {
        return groups.choose(excluded, inGroup);
    }

    private Backend chooseIn(int index, Backend excluded) {
        Backend[] group = groups.group(index);
        int total = 0;
        for (Backend b : group) {
            if (b.eligible(excluded)) {
                total += weighted ? b.weight() : 1;
            }
        }
        if (total == 0) {
            return null;
        }
        int draw = random.nextInt(total);
        Backend lastEligible = null;
        for (Backend b : group) {
            if (b.eligible(excluded)) {
                lastEligible = b;
                draw -= weighted ? b.weight() : 1;
                if (draw < 0) {
                    return b;
                }
            }
        }
        // a member went down between the two loops and its share was drawn: another live one, if any is left
        return lastEligible;
    }
}
