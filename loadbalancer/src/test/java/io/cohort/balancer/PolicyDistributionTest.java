package io.cohort.balancer;

import static io.cohort.balancer.TestBalancer.routedTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cohort.config.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.LoggerFactory;

/** Each policy's distribution of fresh sessions (requests without a session cookie) matches its definition. */
@Timeout(60)
class PolicyDistributionTest {

    @Test
    void roundRobinTakesMembersInTurnAndSharesEvenlyWithinOneRequest() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"),
                StubMember.start("n3"))) {
            List<String> order = route(lb, 31);

            assertThat(spread(counts(order))).isLessThanOrEqualTo(1);
            for (int i = 3; i < order.size(); i++) {
                assertThat(order.get(i)).as("request %d repeats the member of request %d", i, i - 3).isEqualTo(order.get(i - 3));
            }
            assertThat(order.subList(0, 3)).containsExactlyInAnyOrder("n1", "n2", "n3");
        }
    }

    @Test
    void roundRobinSkipsADeadMemberAndStaysEvenOverTheOthers() throws Exception {
        StubMember n2 = StubMember.start("n2");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), n2, StubMember.start("n3"))) {
            n2.healthy(false);
            lb.checkUntil(() -> !lb.backend("n2").isUp());

            Map<String, Integer> counts = counts(route(lb, 30));

            assertThat(counts).containsOnlyKeys("n1", "n3").containsEntry("n1", 15).containsEntry("n3", 15);
        }
    }

    @Test
    void randomSpreadsFreshSessionsUniformly() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.RANDOM, StubMember.start("n1"), StubMember.start("n2"), StubMember.start("n3"))) {
            Map<String, Integer> counts = counts(route(lb, 600));

            assertThat(counts).containsOnlyKeys("n1", "n2", "n3");
            counts.values().forEach(c -> assertThat(c).isBetween(150, 250));
        }
    }

    @Test
    void randomWeightedDrawsMembersInProportionToTheirHostsWeights() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.RANDOM_WEIGHTED;
        settings.weights = Map.of("a", 1, "b", 2, "c", 3);
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1", "a"), StubMember.start("n2", "b"),
                StubMember.start("n3", "c"))) {
            int total = 1200;
            Map<String, Integer> counts = counts(route(lb, total));

            assertThat(counts.get("n1") / (double) total).isCloseTo(1 / 6.0, within(0.05));
            assertThat(counts.get("n2") / (double) total).isCloseTo(2 / 6.0, within(0.05));
            assertThat(counts.get("n3") / (double) total).isCloseTo(3 / 6.0, within(0.05));
        }
    }

    @Test
    void roundRobinWeightedGivesEachMemberItsWeightInTurnsPerCycle() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.ROUND_ROBIN_WEIGHTED;
        settings.weights = Map.of("a", 3, "b", 1);
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1", "a"), StubMember.start("n2", "b"))) {
            List<String> order = route(lb, 40);

            assertThat(counts(order)).containsEntry("n1", 30).containsEntry("n2", 10);
            for (int cycle = 0; cycle < 10; cycle++) {
                assertThat(order.subList(cycle * 4, cycle * 4 + 4)).as("cycle %d", cycle).containsOnlyOnce("n2");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(value = Policy.class, names = {"RANDOM_LOCAL", "ROUND_ROBIN_LOCAL", "METRIC_LOCAL"})
    void localAffinitySendsEverythingToTheLocalMemberWhileItLivesAndSpreadsWhenItIsDown(Policy policy) throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = policy;
        settings.host = "blade1";
        StubMember local = StubMember.start("n1", "blade1");
        try (TestBalancer lb = TestBalancer.start(settings, local, StubMember.start("n2", "blade2"), StubMember.start("n3", "blade3"))) {
            assertThat(counts(route(lb, 30))).containsOnlyKeys("n1");

            local.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());
            Map<String, Integer> counts = counts(route(lb, 30));

            assertThat(counts).containsOnlyKeys("n2", "n3");
            if (policy == Policy.ROUND_ROBIN_LOCAL) {
                assertThat(counts).containsEntry("n2", 15).containsEntry("n3", 15);
            }
        }
    }

    @Test
    void aMemberIsLocalWhateverTheCaseOfItsHostName() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.ROUND_ROBIN_LOCAL;
        settings.host = "blade1";
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1", "Blade1"), StubMember.start("n2", "blade2"))) {
            assertThat(counts(route(lb, 10))).containsOnlyKeys("n1");
        }
    }

    @Test
    void aLocalPolicyWithNoMemberOnItsHostSaysSoAtStart() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.ROUND_ROBIN_LOCAL;
        settings.host = "blade9";
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger serverLog = (Logger) LoggerFactory.getLogger(BalancerServer.class);
        log.start();
        serverLog.addAppender(log);
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1", "blade1"), StubMember.start("n2", "blade2"))) {
            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(line -> line.contains("no member has that host"))
                    .singleElement().asString().contains("roundrobin:local", "blade9", "as roundrobin among all");
        } finally {
            serverLog.detachAppender(log);
        }
    }

    @Test
    void metricPrefersTheMemberReportingTheMostSpareCapacity() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        StubMember n3 = StubMember.start("n3");
        n1.spareCapacity(0.2);
        n2.spareCapacity(0.9);
        n3.spareCapacity(0.5);
        try (TestBalancer lb = TestBalancer.start(Policy.METRIC, n1, n2, n3)) {
            lb.checkUntil(() -> lb.backend("n1").spareCapacity() == 0.2 && lb.backend("n2").spareCapacity() == 0.9
                    && lb.backend("n3").spareCapacity() == 0.5);
            assertThat(counts(route(lb, 30))).containsOnlyKeys("n2");

            n2.spareCapacity(0.1);
            lb.checkUntil(() -> lb.backend("n2").spareCapacity() == 0.1);
            assertThat(counts(route(lb, 30))).containsOnlyKeys("n3");
        }
    }

    /** The members that served {@code n} sequential requests without a session, in order. */
    private static List<String> route(TestBalancer lb, int n) throws Exception {
        List<String> order = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            var response = lb.get("/shop/");
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("X-Served-By")).hasValue(routedTo(response));
            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER).orElseThrow()).endsWith("; reason=policy");
            lb.awaitNothingInFlight(); // the balancer counts a request in flight until its last write to the client ended
            order.add(routedTo(response));
        }
        return order;
    }

    private static Map<String, Integer> counts(List<String> order) {
        Map<String, Integer> counts = new TreeMap<>();
        order.forEach(m -> counts.merge(m, 1, Integer::sum));
        return counts;
    }

    private static int spread(Map<String, Integer> counts) {
        return counts.values().stream().mapToInt(Integer::intValue).max().orElse(0)
                - counts.values().stream().mapToInt(Integer::intValue).min().orElse(0);
    }
}
