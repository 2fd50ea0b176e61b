package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.DataSize;
import io.cohort.config.MemberLimitsConfig;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The head of a member's answer: one within {@code max-member-header-size} reaches the client whole; a larger one is the
 * member's error (502), never counted as the client's abort.
 */
@Timeout(60)
class MemberAnswerHeadTest {

    private static final long DEFAULT_LIMIT = MemberLimitsConfig.DEFAULT.maxHeaderSize().bytes();

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
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "GET /bighead?bytes=" + (DEFAULT_LIMIT + 1)
                    + " HTTP/1.1\r\nHost: localhost\r\nCookie: JSESSIONID=node0x.a\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(502);
            assertThat(answer.head()).contains(BalancerProxy.ROUTED_HEADER + ": a");
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the member").isEqualTo(1);
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isZero();
            assertThat(b.served()).as("retried elsewhere, though the member had begun its answer").isZero();
        }
    }

    /** With the default limit (64 KiB) both heads would pass. */
    @Test
    void aSmallerConfiguredLimitRefusesAHeadOverItAndPassesOneUnderIt() throws Exception {
        StubMember a = StubMember.start("a");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxMemberHeaderSize = DataSize.parse("4KiB");
        try (TestBalancer lb = TestBalancer.start(settings, a)) {
            RawHttp.Answer under = bigHead(lb, 3_000);
            RawHttp.Answer over = bigHead(lb, 4_097);

            assertThat(under.status()).as("a head of about 3,100 bytes").isEqualTo(200);
            assertThat(under.head()).contains("X-Big: " + "x".repeat(3_000) + "\r\n");
            assertThat(over.status()).as("a head with a header line over 4 KiB").isEqualTo(502);
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the member").isEqualTo(1);
            assertThat(lb.server.metrics().clientAbortedCount()).as("client aborts").isZero();
        }
    }

    /**
     * With the default limit the balancer's client refuses the 100,000-byte head (502); with the proxy connector's head
     * size left at the default's it cannot pass the head on once taken.
     */
    @Test
    void aLargerConfiguredLimitPassesAHeadOverTheDefaultWhole() throws Exception {
        StubMember a = StubMember.start("a");
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxMemberHeaderSize = DataSize.parse("128KiB");
        try (TestBalancer lb = TestBalancer.start(settings, a)) {
            RawHttp.Answer under = bigHead(lb, 100_000);
            RawHttp.Answer over = bigHead(lb, 128 * 1024 + 1);

            assertThat(under.status()).as("a head of about 100,000 bytes").isEqualTo(200);
            assertThat(under.head()).contains("X-Big: " + "x".repeat(100_000) + "\r\n")
                    .contains(BalancerProxy.ROUTED_HEADER + ": a");
            assertThat(under.body()).isEqualTo("a");
            assertThat(over.status()).as("a head with a header line over 128 KiB").isEqualTo(502);
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the member").isEqualTo(1);
        }
    }

    private static RawHttp.Answer bigHead(TestBalancer lb, int bytes) throws Exception {
        return RawHttp.exchange(lb.server.uri(), "GET /bighead?bytes=" + bytes + " HTTP/1.1\r\nHost: localhost\r\nConnection: close");
    }
}
