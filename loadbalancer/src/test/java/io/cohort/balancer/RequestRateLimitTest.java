package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.ClientLimitsConfig;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code <client-limits max-request-rate request-burst>}: a leaking bucket per client in front of the proxy. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestRateLimitTest {

    @Test
    void aClientOverItsBurstGets429WithRetryAfterAndTheMemberNeverSeesThoseRequests() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(rate(1, 3), n1)) {
            List<HttpResponse<String>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                answers.add(lb.get("/shop/"));
            }

            assertThat(answers.subList(0, 3)).as("the burst").allSatisfy(a -> assertThat(a.statusCode()).isEqualTo(200));
            List<HttpResponse<String>> refused = answers.stream().filter(a -> a.statusCode() == 429).toList();
            // one request a second may drip through if this machine stalls between requests, never more than that
            assertThat(refused).as("over the burst at 1 request/s").hasSizeGreaterThanOrEqualTo(2);
            assertThat(refused).allSatisfy(a -> {
                assertThat(a.headers().firstValue("Retry-After")).as("two drips at 1/s").contains("2");
                assertThat(a.body()).contains("429 Too Many Requests").contains(RequestRateLimit.TOO_MANY);
            });
            assertThat(n1.served()).isEqualTo(6 - refused.size());
            assertThat(lb.server.metrics().scrape()).contains("cohort_balancer_rate_limited_total{balancer=\""
                    + lb.server.config().name() + "\"} " + refused.size() + ".0");
        }
    }

    @Test
    void aClientThatSlowsBelowTheRateIsServedAgain() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(rate(1, 1), n1)) {
            assertThat(lb.get("/shop/").statusCode()).isEqualTo(200);
            assertThat(lb.get("/shop/").statusCode()).as("no burst: the next only after a second").isEqualTo(429);

            Thread.sleep(3_000); // three drips at 1/s; a refused request needs two
            HttpResponse<String> later = lb.get("/shop/");

            assertThat(later.statusCode()).isEqualTo(200);
            assertThat(n1.served()).isEqualTo(2);
        }
    }

    @Test
    void clientsBehindATrustedProxyEachHaveTheirOwnBucket() throws Exception {
        StubMember n1 = StubMember.start("n1");
        TestBalancer.Settings settings = rate(1, 2);
        settings.trustedProxies = List.of("127.0.0.0/8");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            // warms the proxy's path on another client's bucket, so the first client's requests come within a second
            assertThat(lb.get("/shop/", "X-Forwarded-For", "192.0.2.99").statusCode()).isEqualTo(200);
            assertThat(lb.get("/shop/", "X-Forwarded-For", "203.0.113.1").statusCode()).isEqualTo(200);
            assertThat(lb.get("/shop/", "X-Forwarded-For", "203.0.113.1").statusCode()).isEqualTo(200);
            assertThat(lb.get("/shop/", "X-Forwarded-For", "203.0.113.1").statusCode()).as("first client over").isEqualTo(429);

            assertThat(lb.get("/shop/", "X-Forwarded-For", "203.0.113.2").statusCode()).as("another client behind the proxy")
                    .isEqualTo(200);
            assertThat(lb.get("/shop/", "X-Forwarded-For", "198.51.100.7, 203.0.113.1").statusCode())
                    .as("the first client again, with a made-up address left of it").isEqualTo(429);
        }
    }

    @Test
    void aClientThatIsNoTrustedProxyCannotEscapeItsBucketByMakingUpForwardedAddresses() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(rate(1, 2), n1)) {
            List<Integer> statuses = new ArrayList<>();
            for (int i = 1; i <= 4; i++) {
                statuses.add(lb.get("/shop/", "X-Forwarded-For", "203.0.113." + i).statusCode());
            }

            assertThat(statuses.subList(0, 2)).containsOnly(200);
            assertThat(statuses.subList(2, 4)).contains(429);
        }
    }

    @Test
    void theAdminPortIsNotLimited() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(rate(1, 1), n1)) {
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> health = lb.send(HttpRequest.newBuilder(lb.server.adminUri().resolve("/health")).GET());
                assertThat(health.statusCode()).isEqualTo(200);
            }
        }
    }

    @Test
    void theLimitKeepsTheProxyNonBlocking() {
        Handler nonBlocking = new Handler.Abstract.NonBlocking() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                return false;
            }
        };
        Handler limited = RequestRateLimit.around(nonBlocking, new ClientLimitsConfig.RequestRate(10, 10),
                new ForwardedHeaders(List.of()), "lb", new BalancerMetrics("lb-invocation").registry());

        assertThat(limited.getInvocationType()).isEqualTo(Invocable.InvocationType.NON_BLOCKING);
    }

    private static TestBalancer.Settings rate(int perSecond, int burst) {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        ClientLimitsConfig defaults = ClientLimitsConfig.DEFAULT;
        settings.clientLimits = new ClientLimitsConfig(defaults.headerTimeout(), defaults.maxConnections(), OptionalInt.empty(),
                Optional.of(new ClientLimitsConfig.RequestRate(perSecond, burst)));
        return settings;
    }
}
