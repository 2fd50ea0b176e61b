package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.HealthCheckConfig;
import io.cohort.config.Policy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Active checks mark members down after fall failures and up after rise passes, at the configured pace. */
@Timeout(60)
class HealthCheckTest {

    @Test
    void fallFailedChecksInARowMarkAMemberDownAndRisePassedChecksBringItBack() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(1), 3, 2);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1, StubMember.start("n2"))) {
            HealthChecker checker = lb.server.healthChecker();
            Backend member = lb.backend("n1");
            n1.healthy(false);

            checker.checkAll().get();
            checker.checkAll().get();
            assertThat(member.isUp()).as("after 2 of 3 failures").isTrue();
            checker.checkAll().get();
            assertThat(member.isUp()).as("after 3 failures").isFalse();

            n1.healthy(true);
            checker.checkAll().get();
            assertThat(member.isUp()).as("after 1 of 2 passes").isFalse();
            checker.checkAll().get();
            assertThat(member.isUp()).as("after 2 passes").isTrue();
        }
    }

    @Test
    void aPassInTheMiddleRestartsTheCountOfFailures() throws Exception {
        HealthState state = new HealthState(3, 2);

        state.checkFailed();
        state.checkFailed();
        state.checkPassed();
        state.checkFailed();
        state.checkFailed();
        assertThat(state.isUp()).isTrue();
        assertThat(state.checkFailed()).isEqualTo(HealthState.Change.WENT_DOWN);
    }

    @Test
    void aFailedConnectionMarksDownAtOnceAndTheMemberMustPassRiseChecks() {
        HealthState state = new HealthState(3, 2);

        assertThat(state.connectFailed()).isEqualTo(HealthState.Change.WENT_DOWN);
        assertThat(state.isUp()).isFalse();
        assertThat(state.checkPassed()).isEqualTo(HealthState.Change.NONE);
        assertThat(state.checkPassed()).isEqualTo(HealthState.Change.CAME_UP);
    }

    @Test
    void scheduledChecksFollowTheConfiguredIntervalFallAndRise() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.health = new HealthCheckConfig("/health", Duration.ofMillis(100), Duration.ofMillis(500), 2, 3);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1, StubMember.start("n2"))) {
            Backend member = lb.backend("n1");

            long start = System.nanoTime();
            n1.healthy(false);
            awaitUp(member, false);
            long down = millisSince(start);
            // 2 failures need at least one full interval between them; the upper bound leaves room for a slow machine
            assertThat(down).isBetween(90L, 3_000L);

            start = System.nanoTime();
            n1.healthy(true);
            awaitUp(member, true);
            assertThat(millisSince(start)).as("3 passes need at least two intervals").isBetween(190L, 3_000L);
        }
    }

    @Test
    void anUnreachableHealthUrlFailsTheCheck() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.deadMembers = Map.of("n9", TestBalancer.deadPort());
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            lb.checkUntil(() -> !lb.backend("n9").isUp());

            assertThat(lb.backend("n1").isUp()).isTrue();
            assertThat(lb.server.members()).extracting(MemberStatus::name, MemberStatus::up)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("n1", true), org.assertj.core.groups.Tuple.tuple("n9", false));
        }
    }

    @Test
    void spareCapacityIsReadFromTheHealthAnswer() throws Exception {
        StubMember n1 = StubMember.start("n1");
        n1.spareCapacity(0.375);
        try (TestBalancer lb = TestBalancer.start(Policy.METRIC, n1)) {
            lb.server.healthChecker().checkAll().get();

            assertThat(lb.backend("n1").spareCapacity()).isEqualTo(0.375);
        }
    }

    private static void awaitUp(Backend member, boolean up) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (member.isUp() != up && System.nanoTime() < deadline) {
            Thread.sleep(5); // polling a volatile flag the checker's thread sets; no event to wait on
        }
        assertThat(member.isUp()).isEqualTo(up);
    }

    private static long millisSince(long startNanos) {
        return (System.nanoTime() - startNanos) / 1_000_000;
    }
}
