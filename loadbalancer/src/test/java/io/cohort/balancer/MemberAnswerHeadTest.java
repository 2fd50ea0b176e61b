package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The head of a member's answer: one the balancer's client takes ({@link BalancerProxy#MAX_MEMBER_HEAD}) reaches the
 * client whole; a larger one is the member's error (502), never counted as the client's abort.
 */
@Timeout(60)
class MemberAnswerHeadTest {

    @Test
    void anAnswerWithAHeadLargerThanJettysDefaultsReachesTheClientWhole() throws Exception {
        StubMember a = StubMember.start("a");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), a)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "GET /bighead?bytes=20000 HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.head()).contains("X-Big: " + "x".repeat(20_000) + "\r\n");
            assertThat(answer.body()).isEqualTo("a");
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isZero();
            assertThat(lb.backend("a").meters().errors.count()).isZero();
        }
    }

    @Test
    void anAnswerWithAHeadOverTheLimitIsTheMembersErrorNotTheClients() throws Exception {
        StubMember a = StubMember.start("a");
        StubMember b = StubMember.start("b");
        try (TestBalancer lb = TestBalancer.start(new TestBalancer.Settings(), a, b)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "GET /bighead?bytes=" + (BalancerProxy.MAX_MEMBER_HEAD + 1)
                    + " HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0x.a\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(502);
            assertThat(answer.head()).contains(BalancerProxy.ROUTED_HEADER + ": a");
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the member").isEqualTo(1);
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isZero();
            assertThat(b.served()).as("retried elsewhere, though the member had begun its answer").isZero();
        }
    }
}
