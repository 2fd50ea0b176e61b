package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cohort.config.BalancerMember;
import io.cohort.config.HealthCheckConfig;
import io.cohort.config.Policy;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Active checks mark members down after fall failures and up after rise passes, at the configured pace; a check that
 * times out while the member answers requests counts neither way.
 */
@Timeout(60)
class HealthCheckTest {

    @Test
    void fallFailedChecksInARowMarkAMemberDownAndRisePassedChecksBringItBack() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(10), 3, 2);
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
    void aMemberGoingDownAndUpIsLoggedWithTheBalancersName() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(10), 1, 1);
        StubMember n1 = StubMember.start("n1");
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger checkerLog = (Logger) LoggerFactory.getLogger(HealthChecker.class);
        log.start();
        checkerLog.addAppender(log);
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            String balancer = lb.server.config().name();
            n1.healthy(false);
            lb.server.healthChecker().checkAll().get();
            n1.healthy(true);
            lb.server.healthChecker().checkAll().get();

            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(line -> line.contains(" member n1 "))
                    .as("several balancers may run in one process, each with its own view of the member")
                    .satisfiesExactly(
                            down -> assertThat(down).startsWith("Balancer " + balancer + " member n1 is down"),
                            up -> assertThat(up).startsWith("Balancer " + balancer + " member n1 is up"));
        } finally {
            checkerLog.detachAppender(log);
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
        settings.health = new HealthCheckConfig("/health", Duration.ofMillis(100), Duration.ofSeconds(2), 2, 3);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1, StubMember.start("n2"))) {
            Backend member = lb.backend("n1");

            long start = System.nanoTime();
            n1.healthy(false);
            awaitUp(member, false);
            long down = millisSince(start);
            // 2 failures need at least one full interval between them; the upper bound leaves room for a slow machine
            assertThat(down).isBetween(90L, 8_000L);

            start = System.nanoTime();
            n1.healthy(true);
            awaitUp(member, true);
            assertThat(millisSince(start)).as("3 passes need at least two intervals").isBetween(190L, 8_000L);
        }
    }

    @Test
    void aCheckThatTimesOutWhileTheMemberAnswersRequestsDoesNotCountAgainstIt() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        // long enough for the proxied request below to be answered while the check waits on a busy machine
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(3), 1, 1);
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            Backend member = lb.backend("n1");
            assertThat(lb.get("/shop/").statusCode()).as("warms the proxy's path; an answer before the check excuses nothing")
                    .isEqualTo(200);
            n1.healthSilent(true);

            CompletableFuture<Void> busyCheck = lb.server.healthChecker().check(member);
            assertThat(lb.get("/shop/").statusCode()).as("answered while its health check waits").isEqualTo(200);
            busyCheck.get();
            assertThat(member.isUp()).as("a member answering requests is busy, not down").isTrue();
            assertThat(member.meters().lateTimeouts.count()).isEqualTo(1.0);

            lb.server.healthChecker().check(member).get();
            assertThat(member.isUp()).as("a member that answers nothing within the timeout is down").isFalse();
            assertThat(member.meters().lateTimeouts.count()).isEqualTo(1.0);
        }
    }

    @Test
    void aCheckExcusedAsBusyLeavesTheMemberNoSpareCapacityUntilItReportsAgain() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.METRIC;
        // long enough for the proxied request below to be answered while the check waits on a busy machine
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(3), 1, 1);
        StubMember n1 = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        n1.spareCapacity(0.9);
        n2.spareCapacity(0.3);
        try (TestBalancer lb = TestBalancer.start(settings, n1, n2)) {
            Backend member = lb.backend("n1");
            lb.server.healthChecker().checkAll().get();
            assertThat(member.spareCapacity()).isEqualTo(0.9);
            n1.healthSilent(true);

            CompletableFuture<Void> busyCheck = lb.server.healthChecker().check(member);
            assertThat(TestBalancer.routedTo(lb.get("/shop/"))).as("the most spare capacity, answered while its check waits")
                    .isEqualTo("n1");
            busyCheck.get();
            lb.awaitNothingInFlight();

            assertThat(member.meters().lateTimeouts.count()).as("excused as busy").isEqualTo(1.0);
            assertThat(member.isUp()).isTrue();
            assertThat(member.spareCapacity()).as("a member too busy to answer its check has none to spare").isZero();
            assertThat(TestBalancer.routedTo(lb.get("/shop/"))).as("a fresh session goes where there is room").isEqualTo("n2");

            n1.healthSilent(false);
            lb.server.healthChecker().check(member).get();
            assertThat(member.spareCapacity()).as("its next answer reports again").isEqualTo(0.9);
        }
    }

    @Test
    void aMemberThatAnswersItsCheckAsNotHealthyHasNoSpareCapacity() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = Policy.METRIC;
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(3), 3, 1);
        StubMember starting = StubMember.start("n1");
        StubMember n2 = StubMember.start("n2");
        starting.spareCapacity(1.0); // idle: it is still deploying
        n2.spareCapacity(0.5);
        try (TestBalancer lb = TestBalancer.start(settings, starting, n2)) {
            starting.healthy(false);
            lb.server.healthChecker().checkAll().get();

            assertThat(lb.backend("n1").isUp()).as("up until fall checks failed").isTrue();
            assertThat(lb.backend("n1").spareCapacity()).as("what a 503 answer says it has to spare").isZero();
            assertThat(TestBalancer.routedTo(lb.get("/shop/"))).as("a fresh session goes to the healthy member")
                    .isEqualTo("n2");

            starting.healthy(true);
            lb.server.healthChecker().checkAll().get();
            assertThat(lb.backend("n1").spareCapacity()).as("its next healthy answer reports again").isEqualTo(1.0);
        }
    }

    @Test
    void aCheckDoesNotQueueBehindRequestsThatFillTheProxysConnectionsToTheMember() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxConnections = 1;
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            Backend member = lb.backend("n1");
            CompletableFuture<java.net.http.HttpResponse<String>> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return lb.get("/hold");
                } catch (IOException | InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            n1.awaitHeld(); // the proxy's only connection to n1 waits for this answer

            lb.server.healthChecker().check(member).get();

            assertThat(member.isUp()).as("the check reached the member on a connection of its own").isTrue();
            assertThat(member.meters().lateTimeouts.count()).as("nor was it excused as late").isZero();
            n1.releaseHeld();
            assertThat(held.get(20, java.util.concurrent.TimeUnit.SECONDS).body()).isEqualTo("n1");
        }
    }

    @Test
    void aHealthCheckFollowsNoRedirect() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember elsewhere = StubMember.start("elsewhere");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), n1)) {
            n1.healthRedirectsTo(elsewhere.url() + "/health"); // a healthy answer, but not the member's

            lb.server.healthChecker().check(lb.backend("n1")).get();

            assertThat(lb.backend("n1").isUp()).as("a 3xx fails the check").isFalse();
        } finally {
            elsewhere.close();
        }
    }

    @Test
    void onlyATimeoutAfterAnAnswerBeganSinceTheCheckWasGivenIsExcused() throws InterruptedException {
        URI url = URI.create("http://127.0.0.1:1");
        Backend member = new Backend("test", new BalancerMember("n1", "h", url, url, 1), true, new HealthState(1, 1),
                new BalancerMetrics("unit-" + UUID.randomUUID()));
        long given = System.nanoTime();
        IOException connectTimeout = new SocketTimeoutException("Connect Timeout");

        assertThat(member.excuseIfLate(connectTimeout, given)).as("no answer since it was given").isFalse();
        member.answered();
        assertThat(member.excuseIfLate(connectTimeout, given)).isTrue();
        assertThat(member.excuseIfLate(new IOException(new TimeoutException("Total timeout 1000 ms elapsed")), given)).isTrue();
        assertThat(member.excuseIfLate(new ConnectException("Connection refused"), given)).as("refused").isFalse();
        assertThat(member.excuseIfLate(new EOFException("reset"), given)).as("broken").isFalse();
        Thread.sleep(1);
        assertThat(member.excuseIfLate(connectTimeout, given)).as("however late the timeout fires").isTrue();
        assertThat(member.excuseIfLate(connectTimeout, System.nanoTime())).as("answered before it was given").isFalse();
        assertThat(member.meters().lateTimeouts.count()).isEqualTo(3.0);
    }

    @Test
    void onlyAnExcusedTimeoutTakesTheMembersSpareCapacityAway() {
        URI url = URI.create("http://127.0.0.1:1");
        Backend member = new Backend("test", new BalancerMember("n1", "h", url, url, 1), true, new HealthState(1, 1),
                new BalancerMetrics("unit-" + UUID.randomUUID()));
        long given = System.nanoTime();
        member.spareCapacity(0.8);

        assertThat(member.excuseIfLate(new SocketTimeoutException("Connect Timeout"), given)).isFalse();
        assertThat(member.excuseIfLate(new ConnectException("Connection refused"), given)).isFalse();
        assertThat(member.spareCapacity()).as("failures that are not excused leave it").isEqualTo(0.8);
        member.answered();
        assertThat(member.excuseIfLate(new SocketTimeoutException("Connect Timeout"), given)).isTrue();
        assertThat(member.spareCapacity()).as("a connect that timed out while the member answered others").isZero();
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
    void aMemberWhoseHealthAnswerNamesAnotherNodeIsLoggedOnceAndStaysUp() throws Exception {
        StubMember n1 = StubMember.start("n1");
        n1.reportsNode("node1"); // <member name="n1"> in front of a node named node1: its sessions end in .node1
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger checkerLog = (Logger) LoggerFactory.getLogger(HealthChecker.class);
        log.start();
        checkerLog.addAppender(log);
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            lb.server.healthChecker().checkAll().get();
            lb.server.healthChecker().checkAll().get();

            assertThat(log.list).extracting(ILoggingEvent::getFormattedMessage)
                    .filteredOn(line -> line.contains("as node 'node1'"))
                    .singleElement().asString().contains("member n1").contains("named 'node1'");
            assertThat(lb.backend("n1").isUp()).isTrue();
        } finally {
            checkerLog.detachAppender(log);
        }
    }

    @Test
    void uncertainConnectFailuresOfRequestsInQuickSuccessionCountAsOneFailedCheck() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.health = new HealthCheckConfig("/health", Duration.ofHours(1), Duration.ofSeconds(10), 3, 1);
        settings.urlMembers = Map.of("a", URI.create("http://member-a.test:8080"));
        // no connection can be made, for a reason that does not tell whether the member is unreachable: the JDK reports
        // ENETUNREACH, EHOSTDOWN and the balancer's own EMFILE alike, as a plain SocketException
        settings.lookups = client -> (host, port, context, promise) -> promise.failed(new SocketException("Too many open files"));
        try (TestBalancer lb = TestBalancer.start(settings)) {
            for (int i = 0; i < 3; i++) {
                assertThat(lb.get("/").statusCode()).isEqualTo(502);
            }

            assertThat(lb.backend("a").meters().errors.count()).isEqualTo(3);
            assertThat(lb.backend("a").isUp()).as("up: three failures within an interval count as one failed check of the "
                    + "three (fall) that take it down").isTrue();
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
