package io.cohort.balancer;

import io.cohort.config.Policy;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Picks the member for a request that no live member owns: one implementation per family of the
 * mod_oc4j policies ({@link RandomPolicy}, {@link RoundRobinPolicy}, {@link MetricPolicy}); the
 * {@code :local} and {@code :weighted} variants are settings of a family. A policy only ever returns
 * a member that is up, and never the excluded one (the member a retry moves away from).
 * Implementations are thread-safe and allocate nothing per call.
 */
sealed interface RoutePolicy permits RandomPolicy, RoundRobinPolicy, MetricPolicy {

    /**
     * @param excluded a member not to choose, or null
     * @return a live member, or null when none is live
     */
    Backend choose(Backend excluded);

    /**
     * The policy {@code policy} over {@code members} (in configuration order).
     *
     * @param random draws random choices and round robin's starting points
     */
    static RoutePolicy create(Policy policy, List<Backend> members, RandomGenerator random) {
        MemberGroups groups = new MemberGroups(members, policy.local());
        return switch (policy.family()) {
            case RANDOM -> new RandomPolicy(groups, policy.weighted(), random);
            case ROUND_ROBIN -> new RoundRobinPolicy(groups, policy.weighted(), random);
            case METRIC -> new MetricPolicy(groups, random);
        };
    }

    /** A policy's choice within one group of members. */
    @FunctionalInterface
    interface GroupChooser {
        /**
         * @param group    0 for the local members, 1 for all ({@link MemberGroups#group})
         * @param excluded a member not to choose, or null
         * @return a live member of the group, or null when none is live
         */
        Backend chooseIn(int group, Backend excluded);
    }

    /**
     * The members a policy draws from: all of them, or first the local ones when the policy prefers
     * local members (falling back to all when no local member is live).
     */
    final class MemberGroups {
        final Backend[] all;
        final Backend[] local;
        private final boolean preferLocal;

        MemberGroups(List<Backend> members, boolean preferLocal) {
            this.all = members.toArray(new Backend[0]);
            this.local = members.stream().filter(Backend::local).toArray(Backend[]::new);
            this.preferLocal = preferLocal && local.length > 0;
        }

        /**
         * The member {@code chooser} picks in the group {@link #groupFor} names; when that was the local group and its
         * live members went down between the two looks, in all of them, as when no local member is live.
         */
        Backend choose(Backend excluded, GroupChooser chooser) {
            int index = groupFor(excluded);
            Backend chosen = chooser.chooseIn(index, excluded);
            return chosen == null && index == 0 ? chooser.chooseIn(1, excluded) : chosen;
        }

        /** Index 0 for the local group, 1 for all; chosen per call. */
        int groupFor(Backend excluded) {
            if (preferLocal) {
                for (Backend b : local) {
                    if (b.eligible(excluded)) {
                        return 0;
                    }
                }
            }
            return 1;
        }

        Backend[] group(int index) {
            return index == 0 ? local : all;
        }
    }
}
