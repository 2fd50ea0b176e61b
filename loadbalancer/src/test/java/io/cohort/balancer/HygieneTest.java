package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.DataSize;
import io.cohort.config.Policy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Proxy hygiene: forwarding headers, hop-by-hop headers, no open proxying, size limits, plain error pages. */
@Timeout(60)
class HygieneTest {

    @Test
    void clientSuppliedForwardingHeadersAreReplacedNotTrusted() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            String authority = uri.getHost() + ":" + uri.getPort();

            RawHttp.Answer answer = RawHttp.exchange(uri, "GET /headers HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n"
                    + "X-Forwarded-For: 6.6.6.6\r\nX-Forwarded-Proto: https\r\nX-Forwarded-Host: evil.example\r\n"
                    + "Forwarded: for=6.6.6.6;proto=https\r\nX-Real-IP: 6.6.6.6\r\nX-Proxied-Https: on");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).doesNotContain("6.6.6.6").doesNotContain("evil.example").doesNotContain("X-Real-IP")
                    .doesNotContainIgnoringCase("X-Proxied-Https")
                    .contains("X-Forwarded-For: 127.0.0.1\n")
                    .contains("X-Forwarded-Proto: http\n")
                    .contains("X-Forwarded-Host: " + authority + "\n")
                    .contains("Forwarded: for=127.0.0.1;proto=http;host=\"" + authority + "\";by=127.0.0.1\n");
        }
    }

    @Test
    void everyOtherForwardingHeaderOfTheClientIsDropped() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            String authority = uri.getHost() + ":" + uri.getPort();

            RawHttp.Answer answer = RawHttp.exchange(uri, "GET /headers HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n"
                    + "X-Forwarded-Prefix: //evil.example\r\nx-forwarded-ssl: on\r\nX-Forwarded-Scheme: https\r\n"
                    + "X-Forwarded-Uri: /admin\r\nFront-End-Https: on");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).doesNotContain("evil.example").doesNotContainIgnoringCase("X-Forwarded-Ssl")
                    .doesNotContainIgnoringCase("X-Forwarded-Scheme").doesNotContainIgnoringCase("X-Forwarded-Uri")
                    .doesNotContainIgnoringCase("Front-End-Https").contains("X-Forwarded-Proto: http\n");
        }
    }

    @Test
    void behindATrustedProxyTheClientIsTheRightMostAddressThatIsNotATrustedProxy() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.trustedProxies = List.of("127.0.0.0/8", "10.0.0.0/8");
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            // a TLS terminator at 127.0.0.1 forwards a client that claims 6.6.6.6 and came through 10.0.0.9
            RawHttp.Answer answer = RawHttp.exchange(uri, "GET /headers HTTP/1.1\r\nHost: internal:8000\r\n"
                    + "Connection: close\r\nX-Forwarded-For: 6.6.6.6, 203.0.113.7:4711, 10.0.0.9\r\n"
                    + "X-Forwarded-Proto: https\r\nX-Forwarded-Host: shop.example.com\r\nX-Real-IP: 6.6.6.6");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).doesNotContain("6.6.6.6").doesNotContain("10.0.0.9")
                    .contains("X-Forwarded-For: 203.0.113.7\n")
                    .contains("X-Forwarded-Proto: https\n")
                    .contains("X-Forwarded-Host: shop.example.com\n")
                    .contains("Forwarded: for=203.0.113.7;proto=https;host=\"shop.example.com\";by=127.0.0.1\n");
        }
    }

    @Test
    void aClientThatIsNotATrustedProxyCannotForwardAnything() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.trustedProxies = List.of("10.0.0.0/8");
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            String authority = uri.getHost() + ":" + uri.getPort();
            RawHttp.Answer answer = RawHttp.exchange(uri, "GET /headers HTTP/1.1\r\nHost: " + authority + "\r\n"
                    + "Connection: close\r\nX-Forwarded-For: 10.0.0.9\r\nX-Forwarded-Proto: https\r\n"
                    + "X-Forwarded-Host: evil.example");

            assertThat(answer.body()).doesNotContain("10.0.0.9").doesNotContain("evil.example")
                    .contains("X-Forwarded-For: 127.0.0.1\n").contains("X-Forwarded-Proto: http\n");
        }
    }

    @Test
    void hopByHopHeadersDoNotReachTheMember() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            URI uri = lb.server.uri();

            RawHttp.Answer answer = RawHttp.exchange(uri, "GET /headers HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close, X-Session-Secret\r\nX-Session-Secret: s3cret\r\nKeep-Alive: timeout=5\r\n"
                    + "Proxy-Authorization: Basic dXNlcjpwYXNz\r\nTE: trailers\r\nX-Kept: yes\r\n"
                    + "Proxy: http://evil.example:3128\r\nproxy-foo: pf");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).contains("X-Kept: yes").doesNotContain("s3cret").doesNotContain("Keep-Alive")
                    .doesNotContain("Proxy-Authorization").doesNotContainIgnoringCase("\nTE:")
                    .doesNotContain("evil.example").doesNotContainIgnoringCase("proxy-foo");
        }
    }

    @Test
    void headersTheMembersConnectionHeaderNamesDoNotReachTheClient() throws Exception {
        try (ServerSocket member = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread answering = new Thread(() -> {
                try (Socket connection = member.accept()) {
                    if (!RawHttp.readHead(connection.getInputStream())) {
                        return;
                    }
                    connection.getOutputStream().write(("HTTP/1.1 200 OK\r\nConnection: X-Member-Secret, keep-alive\r\n"
                            + "X-Member-Secret: s3cret\r\nX-Kept: yes\r\nContent-Length: 2\r\n\r\nok")
                            .getBytes(StandardCharsets.US_ASCII));
                    connection.getOutputStream().flush();
                    Thread.sleep(500);
                } catch (IOException | InterruptedException e) {
                    // the test reports what the client saw
                }
            });
            answering.setDaemon(true);
            answering.start();
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.socketMembers = Map.of("n1", member.getLocalPort());
            try (TestBalancer lb = TestBalancer.start(settings)) {
                RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close");

                assertThat(answer.status()).isEqualTo(200);
                assertThat(answer.head()).contains("X-Kept: yes").doesNotContain("s3cret").doesNotContain("X-Member-Secret");
            }
        }
    }

    @Test
    void anAbsoluteUriForAnotherHostIsRefused() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            RawHttp.Answer sameHost = RawHttp.exchange(lb.server.uri(),
                    "GET http://example.org/ HTTP/1.1\r\nHost: example.org\r\nConnection: close");
            RawHttp.Answer otherHost = RawHttp.exchange(lb.server.uri(),
                    "GET http://example.org/ HTTP/1.1\r\nHost: localhost\r\nConnection: close");

            assertThat(sameHost.status()).isEqualTo(403);
            assertThat(otherHost.status()).as("refused by Jetty (authority mismatch) or by the balancer").isIn(400, 403);
            assertThat(n1.served()).isZero();
            assertThat(sameHost.body()).contains("reverse proxy for its own site only");
        }
    }

    @Test
    void anHttpsAbsoluteUriOverPlainHttpDoesNotMakeTheRequestSecureForTheMember() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            String authority = uri.getHost() + ":" + uri.getPort();

            RawHttp.Answer answer = RawHttp.exchange(uri, "GET https://" + authority + "/headers HTTP/1.1\r\nHost: "
                    + authority + "\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).contains("X-Forwarded-Proto: http\n").doesNotContain("proto=https");
        }
    }

    @Test
    void anAbsoluteUriForTheBalancerItselfIsServed() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            URI uri = lb.server.uri();
            String authority = uri.getHost() + ":" + uri.getPort();

            RawHttp.Answer answer = RawHttp.exchange(uri, "GET http://" + authority + "/shop/ HTTP/1.1\r\nHost: " + authority
                    + "\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("n1");
        }
    }

    @Test
    void aQueryWithCharactersJavaNetUriRejectsReachesTheMemberPercentEncoded() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(),
                    "GET /x?q=a|b{c} HTTP/1.1\r\nHost: localhost\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).isEqualTo("n1");
            assertThat(n1.lastTarget()).isEqualTo("/x?q=a%7Cb%7Bc%7D");
            lb.awaitNothingInFlight();
        }
    }

    @Test
    void nonAsciiCharactersInAQueryReachTheMemberAsUtf8Escapes() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            String utf8Target = new String("/x?q=caf\u00e9".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);

            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(),
                    "GET " + utf8Target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(n1.lastTarget()).isEqualTo("/x?q=caf%C3%A9");
        }
    }

    @Test
    void aTargetWithAMalformedEscapeIsRefusedWithoutARequestLeftInFlight() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(),
                    "GET /x?discount=100% HTTP/1.1\r\nHost: localhost\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(400);
            assertPlainPage(answer);
            assertThat(n1.served()).isZero();
            assertThat(lb.backend("n1").inFlight()).isZero();
        }
    }

    @Test
    void connectIsRefused() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\nConnection: close");

            assertThat(answer.status()).isEqualTo(405);
            assertThat(n1.served()).isZero();
        }
    }

    @Test
    void aDeclaredBodyOverTheLimitIsRefusedBeforeAnyMemberSeesIt() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxRequestBody = DataSize.parse("1KiB");
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            String body = "x".repeat(2000);

            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "POST /shop/order HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: 2000\r\nConnection: close", body);

            assertThat(answer.status()).isEqualTo(413);
            assertThat(n1.served()).isZero();
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIsRefused() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxRequestBody = DataSize.parse("1KiB");
        try (TestBalancer lb = TestBalancer.start(settings, StubMember.start("n1"))) {
            String chunk = "x".repeat(800);
            String body = "320\r\n" + chunk + "\r\n320\r\n" + chunk + "\r\n0\r\n\r\n";

            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "POST /shop/order HTTP/1.1\r\nHost: localhost\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close", body);

            assertThat(answer.status()).isEqualTo(413);
        }
    }

    @Test
    void headersOverTheLimitAreRefused() throws Exception {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.maxHeaderSize = DataSize.parse("1KiB");
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(settings, n1)) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "GET /shop/ HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                    + "X-Big: " + "y".repeat(2000));

            assertThat(answer.status()).isEqualTo(431);
            assertThat(n1.served()).isZero();
            assertPlainPage(answer);
        }
    }

    @Test
    void aHeadJustUnderTheLimitReachesTheMemberWithTheHeadersTheBalancerAdds() throws Exception {
        for (String limit : List.of("8KiB", "64KiB")) {
            TestBalancer.Settings settings = new TestBalancer.Settings();
            settings.maxHeaderSize = DataSize.parse(limit);
            StubMember n1 = StubMember.start("n1");
            try (TestBalancer lb = TestBalancer.start(settings, n1)) {
                String start = "GET /headers HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nX-Big: ";
                int big = (int) settings.maxHeaderSize.bytes() - start.length() - 200;
                RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), start + "y".repeat(big));

                assertThat(answer.status()).as(limit).isEqualTo(200);
                assertThat(answer.body()).as(limit).contains("X-Big: yyy").contains("Via: 1.1 ");
                assertThat(lb.server.metrics().registry().find("cohort.balancer.errors").counters())
                        .as("no member error").allMatch(c -> c.count() == 0);
            }
        }
    }

    @Test
    void aBodyWithoutContentTypeReachesTheMemberWithoutOne() throws Exception {
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, StubMember.start("n1"))) {
            RawHttp.Answer answer = RawHttp.exchange(lb.server.uri(), "POST /headers HTTP/1.1\r\nHost: localhost\r\n"
                    + "Connection: close\r\nContent-Length: 5", "hello");

            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).doesNotContainIgnoringCase("Content-Type");
        }
    }

    @Test
    void errorPagesAreShortHtmlWithoutStackTraces() throws Exception {
        StubMember n1 = StubMember.start("n1");
        try (TestBalancer lb = TestBalancer.start(Policy.ROUND_ROBIN, n1)) {
            RawHttp.Answer badGateway = RawHttp.exchange(lb.server.uri(), "GET /die HTTP/1.1\r\nHost: localhost\r\nConnection: close");
            n1.healthy(false);
            lb.checkUntil(() -> !lb.backend("n1").isUp());
            RawHttp.Answer unavailable = RawHttp.exchange(lb.server.uri(), "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close");

            assertThat(badGateway.status()).isEqualTo(502);
            assertThat(unavailable.status()).isEqualTo(503);
            assertPlainPage(badGateway);
            assertPlainPage(unavailable);
            assertThat(badGateway.body()).contains("<h1>502 Bad Gateway</h1>");
            assertThat(unavailable.body()).contains("<h1>503 Service Unavailable</h1>");
        }
    }

    private static void assertPlainPage(RawHttp.Answer answer) {
        assertThat(answer.head()).containsIgnoringCase("Content-Type: text/html");
        assertThat(answer.body()).startsWith("<!DOCTYPE html>").hasSizeLessThan(600)
                .doesNotContain("Exception").doesNotContain("\tat ").doesNotContain("java.").doesNotContainIgnoringCase("jetty");
    }
}
