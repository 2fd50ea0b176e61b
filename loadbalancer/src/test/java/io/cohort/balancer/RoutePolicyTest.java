package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.BalancerMember;
import io.cohort.config.Policy;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The policies on their own, without a network. */
@Timeout(10)
class RoutePolicyTest {

    /** Draws 0 whatever the bound: round robin starts at the first member, a weighted cycle at its first turn. */
    private static final RandomGenerator FIRST_DRAW = new RandomGenerator() {
        @Override
        public long nextLong() {
            throw new UnsupportedOperationException();
        }

        @Override
        public int nextInt(int bound) {
            return 0;
        }
    };

    private final BalancerMetrics metrics = new BalancerMetrics("unit-" + UUID.randomUUID());

    @AfterEach
    void closeMetrics() {
        metrics.close();
    }

    @Test
    void smoothWeightedRoundRobinInterleavesTheHeavyMember() {
        List<Backend> members = List.of(backend("a", 5, false), backend("b", 1, false), backend("c", 1, false));
        RoutePolicy policy = RoutePolicy.create(Policy.ROUND_ROBIN_WEIGHTED, members, FIRST_DRAW); // the cycle from its start

        assertThat(names(policy, 7)).containsExactly("a", "a", "b", "a", "c", "a", "a");
    }

    @Test
    void weightedRoundRobinStartsAtARandomPointOfItsCycleAndThenKeepsItsOrder() {
        List<Backend> members = List.of(backend("a", 5, false), backend("b", 1, false), backend("c", 1, false));
        List<String> cycle = List.of("a", "a", "b", "a", "c", "a", "a");
        List<String> firsts = new ArrayList<>();
        for (int seed = 0; seed < 40; seed++) {
            List<String> order = names(RoutePolicy.create(Policy.ROUND_ROBIN_WEIGHTED, members, new Random(seed)), 14);
            firsts.add(order.get(0));
            assertThat(isRotationOf(order.subList(0, 7), cycle)).as("seed %d: %s is a turn of %s", seed, order, cycle).isTrue();
            assertThat(order.subList(7, 14)).as("seed %d: the second turn repeats the first", seed).isEqualTo(order.subList(0, 7));
        }
        assertThat(firsts).as("balancers in front of the same members do not all begin with the same one").contains("a", "b", "c");
    }

    @Test
    void roundRobinStartsAtARandomPointAndThenGoesInOrder() {
        List<Backend> members = List.of(backend("a", 1, false), backend("b", 1, false), backend("c", 1, false));
        List<String> firsts = new ArrayList<>();
        for (int seed = 0; seed < 20; seed++) {
            List<String> order = names(RoutePolicy.create(Policy.ROUND_ROBIN, members, new Random(seed)), 4);
            firsts.add(order.get(0));
            assertThat(order.get(3)).isEqualTo(order.get(0));
        }
        assertThat(firsts).contains("a", "b", "c");
    }

    @Test
    void noPolicyChoosesADownMemberOrTheExcludedOne() {
        Backend a = backend("a", 1, true);
        Backend b = backend("b", 1, false);
        Backend c = backend("c", 1, false);
        c.health().connectFailed();
        for (Policy p : Policy.values()) {
            RoutePolicy policy = RoutePolicy.create(p, List.of(a, b, c), new Random(7));
            for (int i = 0; i < 20; i++) {
                assertThat(policy.choose(a)).as(p.xmlName()).isSameAs(b);
            }
        }
    }

    @Test
    void everyPolicyAnswersNullWhenNoMemberIsUp() {
        Backend a = backend("a", 1, true);
        a.health().connectFailed();
        for (Policy p : Policy.values()) {
            assertThat(RoutePolicy.create(p, List.of(a), new Random(7)).choose(null)).as(p.xmlName()).isNull();
        }
    }

    @Test
    void aRandomDrawWhoseMemberWentDownMeanwhileStillGetsALiveMember() {
        Backend a = backend("a", 1, false);
        Backend b = backend("b", 1, false);
        for (Policy p : List.of(Policy.RANDOM, Policy.RANDOM_WEIGHTED)) {
            b.health().checkPassed(); // up again for the next policy
            RandomGenerator drawThenLoseB = new RandomGenerator() {
                @Override
                public long nextLong() {
                    throw new UnsupportedOperationException();
                }

                @Override
                public int nextInt(int bound) {
                    b.health().connectFailed(); // b goes down right after the draw counted it
                    return bound - 1; // b's share
                }
            };

            assertThat(RoutePolicy.create(p, List.of(a, b), drawThenLoseB).choose(null)).as(p.xmlName()).isSameAs(a);
        }
    }

    @Test
    void metricSharesEqualCapacityInTurnAndWeighsRequestsInFlight() {
        Backend a = backend("a", 1, false);
        Backend b = backend("b", 1, false);
        a.spareCapacity(0.8);
        b.spareCapacity(0.8);
        RoutePolicy policy = RoutePolicy.create(Policy.METRIC, List.of(a, b), new Random(3));

        List<String> order = names(policy, 4);
        assertThat(order.get(0)).isNotEqualTo(order.get(1));
        assertThat(order.subList(2, 4)).isEqualTo(order.subList(0, 2));
        a.requestStarted();
        assertThat(policy.choose(null)).as("a is busier").isSameAs(b);
    }

    @Test
    void metricSharesEqualCapacityEvenlyWhenAMemberIsDown() {
        Backend a = backend("a", 1, false);
        Backend b = backend("b", 1, false);
        Backend c = backend("c", 1, false);
        List.of(a, b, c).forEach(member -> member.spareCapacity(0.9));
        c.health().connectFailed();
        RoutePolicy policy = RoutePolicy.create(Policy.METRIC, List.of(a, b, c), new Random(1));

        List<String> order = names(policy, 3000);

        assertThat(order.stream().filter("a"::equals).count()).as("a's share of 3,000 (b has the rest)").isEqualTo(1500);
    }

    @Test
    void metricSendsNothingToTheMemberWithTheBacklogWhenNoMemberReportsSpareCapacity() {
        Backend a = backend("a", 1, false); // neither has answered a health check yet (or both were excused as busy)
        Backend b = backend("b", 1, false);
        for (int i = 0; i < 50; i++) {
            a.requestStarted();
        }
        RoutePolicy policy = RoutePolicy.create(Policy.METRIC, List.of(a, b), new Random(1));

        assertThat(names(policy, 10)).as("a has 50 requests in flight, b none").containsOnly("b");
        b.spareCapacity(0.5);
        a.spareCapacity(0.6);
        assertThat(policy.choose(null)).as("reported capacity still decides: 0.61 / 51 against 0.51 / 1").isSameAs(b);
    }

    @Test
    void whenTheLocalMembersGoDownBetweenTheTwoLooksTheChoiceFallsBackToAllMembers() {
        Backend local = backend("local", 1, true);
        Backend remote = backend("remote", 1, false);
        RoutePolicy.MemberGroups groups = new RoutePolicy.MemberGroups(List.of(local, remote), true);
        List<Integer> asked = new ArrayList<>();

        // the local group looked live when it was picked; by the time a member is chosen in it, none is
        Backend chosen = groups.choose(null, (group, excluded) -> {
            asked.add(group);
            return group == 0 ? null : remote;
        });

        assertThat(asked).containsExactly(0, 1);
        assertThat(chosen).isSameAs(remote);
    }

    /** Whether {@code order} is {@code cycle} begun at one of its positions. */
    private static boolean isRotationOf(List<String> order, List<String> cycle) {
        for (int start = 0; start < cycle.size(); start++) {
            List<String> rotated = new ArrayList<>(cycle.subList(start, cycle.size()));
            rotated.addAll(cycle.subList(0, start));
            if (rotated.equals(order)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> names(RoutePolicy policy, int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add(policy.choose(null).name());
        }
        return names;
    }

    private Backend backend(String name, int weight, boolean local) {
        URI url = URI.create("http://127.0.0.1:1");
        return new Backend("test", new BalancerMember(name, "h", url, url, weight), local, new HealthState(1, 1), metrics);
    }
}
