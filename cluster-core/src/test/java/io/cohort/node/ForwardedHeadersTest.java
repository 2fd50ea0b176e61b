package io.cohort.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.testapp.TestWars;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The application behind a balancer sees the client's address, scheme and host from the balancer's
 * forwarding headers, and only when the request comes from a trusted proxy.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForwardedHeadersTest {

    @TempDir
    Path home;

    @Test
    void aBalancerOnTheSameMachineIsTrustedByDefault() throws Exception {
        try (TestNode node = nodeWith("")) {
            assertThat(client(node, forwarded(node)).body())
                    .isEqualTo("remote=203.0.113.7 scheme=https secure=true host=shop.example.com:443");
            assertThat(client(node, forwardedRfc7239(node)).body())
                    .isEqualTo("remote=198.51.100.9 scheme=https secure=true host=shop.example.com:8443");
        }
    }

    @Test
    void aRequestFromAnAddressThatIsNotTrustedKeepsItsConnectionsValues() throws Exception {
        for (String trust : List.of("trusted-proxies=\"none\"", "trusted-proxies=\"10.0.0.5 192.168.0.0/16\"")) {
            try (TestNode node = nodeWith(trust)) {
                assertThat(client(node, forwarded(node)).body()).as(trust)
                        .isEqualTo("remote=127.0.0.1 scheme=http secure=false host=127.0.0.1:" + node.app("/").getPort());
            }
        }
    }

    @Test
    void onlyTheStandardForwardingHeadersAreBelievedNotJettysOthers() throws Exception {
        try (TestNode node = nodeWith("")) {
            HttpResponse<String> response = client(node, HttpRequest.newBuilder(node.app("/app/client"))
                    .header("X-Forwarded-For", "203.0.113.7").header("X-Forwarded-Proto", "http")
                    .header("X-Proxied-Https", "on"));
            assertThat(response.body()).contains("scheme=http secure=false");
        }
    }

    @Test
    void theSessionCookieOfARequestForwardedAsHttpsIsSecure() throws Exception {
        try (TestNode node = nodeWith("")) {
            HttpResponse<String> response = node.send(HttpRequest.newBuilder(node.app("/app/session?set=a&value=1"))
                    .header("X-Forwarded-For", "203.0.113.7").header("X-Forwarded-Proto", "https"));
            assertThat(response.headers().firstValue("Set-Cookie").orElseThrow()).contains("Secure");
            HttpResponse<String> plain = node.get(node.app("/app/session?set=a&value=1"));
            assertThat(plain.headers().firstValue("Set-Cookie").orElseThrow()).doesNotContain("Secure");
        }
    }

    private TestNode nodeWith(String nodeAttributes) throws Exception {
        Path nodeHome = Files.createTempDirectory(home, "node");
        Files.createDirectories(nodeHome.resolve("webapps"));
        TestWars.write(nodeHome.resolve("webapps/app.war"), "v1", true);
        return TestNode.start(nodeHome, "n1", nodeAttributes, "", List.of());
    }

    /** What the balancer sends: {@code X-Forwarded-*} for the client 203.0.113.7 that asked for https://shop.example.com. */
    private static HttpRequest.Builder forwarded(TestNode node) {
        return HttpRequest.newBuilder(node.app("/app/client")).header("X-Forwarded-For", "203.0.113.7")
                .header("X-Forwarded-Proto", "https").header("X-Forwarded-Host", "shop.example.com");
    }

    private static HttpRequest.Builder forwardedRfc7239(TestNode node) {
        return HttpRequest.newBuilder(node.app("/app/client"))
                .header("Forwarded", "for=198.51.100.9;proto=https;host=\"shop.example.com:8443\";by=127.0.0.1");
    }

    private static HttpResponse<String> client(TestNode node, HttpRequest.Builder request) throws Exception {
        HttpResponse<String> response = node.send(request);
        assertThat(response.statusCode()).isEqualTo(200);
        return response;
    }
}
