package io.cohort.balancer;

import static io.cohort.balancer.TestBalancer.routedTo;
import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Policy;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** A request for a live member's session goes to that member, whatever the policy. */
@Timeout(60)
class StickyRoutingTest {

    @ParameterizedTest
    @EnumSource(Policy.class)
    void hundredSequentialRequestsOfOneSessionAllReachItsOwner(Policy policy) throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.policy = policy;
        settings.host = "blade1"; // n1 is local: the local policies would send fresh sessions there
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1", "blade1"), StubMember.start("n2", "blade2"),
                StubMember.start("n3", "blade3"))) {
            for (int i = 0; i < 100; i++) {
                HttpResponse<String> response = lb.get("/shop/cart", "Cookie", "theme=dark; JSESSIONID=node0k4f9s2x1.n2");

                assertThat(response.body()).as("request %d", i).isEqualTo("n2");
                assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n2; reason=sticky");
            }
            assertThat(lb.backend("n2").meters().stickyHits.count()).isEqualTo(100);
        }
    }

    @Test
    void sessionIdInAPathParameterIsStickyToo() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"),
                StubMember.start("n3"))) {
            for (int i = 0; i < 10; i++) {
                HttpResponse<String> response = lb.get("/shop/cart;jsessionid=node0abc.n3?item=7");

                assertThat(routedTo(response)).isEqualTo("n3");
                assertThat(response.body()).isEqualTo("n3");
            }
        }
    }

    @Test
    void ofSeveralSessionCookiesTheFirstThatNamesAMemberLeads() throws Exception {
        // a stale cookie for the parent domain comes first (older), without a route or with a former member's
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"),
                StubMember.start("n3"))) {
            for (String stale : new String[] {"JSESSIONID=3f9a", "JSESSIONID=node0old.n9"}) {
                for (int i = 0; i < 6; i++) {
                    HttpResponse<String> response = lb.get("/shop/cart", "Cookie",
                            stale + "; JSESSIONID=node0abc.n2; COHORT_BACKUP=n1");

                    assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER))
                            .as("%s, request %d", stale, i).hasValue("n2; reason=sticky");
                }
            }
        }
    }

    @Test
    void aStaleCookieNamingAMemberThatIsDownDoesNotLeadOverTheLiveOwnersCookie() throws Exception {
        StubMember n1 = StubMember.start("n1");
        n1.healthy(false); // its checks keep failing: it stays down
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1, StubMember.start("n2"), StubMember.start("n3"))) {
            Backend down = lb.backend("n1");
            while (down.isUp()) {
                down.health().checkFailed();
            }

            HttpResponse<String> response = lb.get("/shop/cart", "Cookie",
                    "JSESSIONID=node0old.n1; JSESSIONID=node0abc.n2; COHORT_BACKUP=n3");

            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER)).hasValue("n2; reason=sticky");
        }
    }

    @Test
    void sessionOfAnUnknownRouteIsPlacedByThePolicy() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"), StubMember.start("n2"))) {
            HttpResponse<String> response = lb.get("/shop/", "Cookie", "JSESSIONID=node0abc.n9");

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue(BalancerProxy.ROUTED_HEADER).orElseThrow()).endsWith("; reason=policy");
        }
    }
}
