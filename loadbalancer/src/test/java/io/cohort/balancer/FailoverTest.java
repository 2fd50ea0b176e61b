package io.cohort.balancer;

import static io.cohort.balancer.TestBalancer.routedTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Policy;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** When a session's owner is down, its request goes to a member that holds a copy (COHORT_BACKUP), else by policy. */
@Timeout(60)
class FailoverTest {

    private static final String SESSION_OF_N1 = "JSESSIONID=node0q8w7e6.n1";

    @Test
    void ownerDownSendsTheRequestToTheFirstLiveBackupHolder() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"), StubMember.start("n3"))) {
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());

            HttpResponse<String> response = lb.get("/shop/cart", "Cookie", SESSION_OF_N1 + "; COHORT_BACKUP=n3.n2");

            assertThat(response.body()).isEqualTo("n3");
            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n3; reason=backup");
            assertThat(lb.backend("n3").meters().failovers.count()).isEqualTo(1);
            assertThat(lb.backend("n2").meters().failovers.count()).isZero();
        }
    }

    @Test
    void aSessionOfAnOwnerThatIsNoMemberGoesToItsBackupWithoutCountingAFailover() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"))) {
            HttpResponse<String> response = lb.get("/shop/cart", "Cookie", "JSESSIONID=abc.n9; COHORT_BACKUP=n2");

            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n2; reason=backup");
            assertThat(lb.backend("n2").meters().failovers.count()).isZero();
        }
    }

    @Test
    void aDeadFirstBackupHolderIsSkippedForTheNext() throws Exception {
        StubMember n1 = StubMember.start("n1");
        StubMember n3 = StubMember.start("n3");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"), n3)) {
            n1.healthy(false);
            n3.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp() && !lb.backend("n3").isUp());

            HttpResponse<String> response = lb.get("/shop/cart", "Cookie", SESSION_OF_N1, "Cookie", "COHORT_BACKUP=n3.n2");

            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n2; reason=backup");
            assertThat(lb.backend("n2").meters().failovers.count()).isEqualTo(1);
        }
    }

    @Test
    void anOwnerThatRefusesConnectionsIsMarkedDownAndTheBackupHolderAnswers() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"), StubMember.start("n3"))) {
            n1.close(); // crashed: not yet noticed by any health check

            HttpResponse<String> response = lb.get("/shop/cart", "Cookie", SESSION_OF_N1 + "; COHORT_BACKUP=n3.n2");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n3; reason=backup");
            assertThat(lb.backend("n1").isUp()).isFalse();
            assertThat(lb.backend("n1").meters().retries.count()).isEqualTo(1);
            assertThat(lb.backend("n3").meters().failovers.count()).isEqualTo(1);

            HttpResponse<String> next = lb.get("/shop/cart", "Cookie", SESSION_OF_N1 + "; COHORT_BACKUP=n3.n2");
            assertThat(routedTo(next)).isEqualTo("n3");
            assertThat(lb.backend("n1").meters().requests.count()).as("a member marked down is skipped").isEqualTo(1);
        }
    }

    @Test
    void withoutABackupCookieTheRequestOfADeadOwnerIsPlacedByThePolicy() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"))) {
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());

            HttpResponse<String> response = lb.get("/shop/cart", "Cookie", SESSION_OF_N1);

            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n2; reason=policy");
            assertThat(lb.backend("n2").meters().failovers.count()).isZero();
        }
    }

    @Test
    void theOwnerGetsItsSessionsBackOnceItIsUpAgain() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"))) {
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());
            assertThat(routedTo(lb.get("/", "Cookie", SESSION_OF_N1 + "; COHORT_BACKUP=n2"))).isEqualTo("n2");

            n1.healthy(true);
            lb.checkUntil(() -> lb.backend("n1").isUp());

            assertThat(lb.get("/", "Cookie", SESSION_OF_N1 + "; COHORT_BACKUP=n2").headers().firstValue(BalancerProxy.ROUTED_HEADER))
                    .hasValue("n1; reason=sticky");
        }
    }
}
