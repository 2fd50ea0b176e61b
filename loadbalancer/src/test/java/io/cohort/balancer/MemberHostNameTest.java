package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.SocketAddressResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A member named by host name in the balancer's configuration (a container's service name, a DNS record) stays in
 * use while the name cannot be resolved, at the address it resolved to last: a DNS outage is no member's failure.
 * The names are resolved here by a resolver the test switches off; every connection to the member is closed when it
 * is, so the next request and health check need a new one.
 */
@Timeout(60)
class MemberHostNameTest {

    private static final String NAME = "member-a.test";

    /** Resolves {@link #NAME} to loopback while {@link #up}; fails as a resolver without an answer does otherwise. */
    private static final class SwitchedDns implements SocketAddressResolver {
        volatile boolean up = true;

        @Override
        public void resolve(String host, int port, Map<String, Object> context, Promise<List<InetSocketAddress>> promise) {
            if (up && host.equals(NAME)) {
                promise.succeeded(List.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)));
            } else {
                promise.failed(new UnknownHostException(host + ": Temporary failure in name resolution"));
            }
        }
    }

    @Test
    void aMemberStaysInUseAtItsLastAddressWhileItsNameDoesNotResolve() throws Exception {
        SwitchedDns dns = new SwitchedDns();
        try (StubMember a = StubMember.start("a"); TestBalancer lb = TestBalancer.start(settings(a, dns))) {
            assertThat(lb.get("/").body()).isEqualTo("a");
            assertThat(lb.backend("a").isUp()).isTrue();

            dns.up = false;
            a.dropConnections();

            assertThat(lb.get("/").statusCode()).as("a request on a new connection").isEqualTo(200);
            lb.server.healthChecker().checkAll().get();
            lb.server.healthChecker().checkAll().get();
            assertThat(lb.backend("a").isUp()).as("up after health checks on a new connection (the tests' fall is 1)").isTrue();
            assertThat(lb.backend("a").meters().errors.count()).as("errors of the member").isZero();
            assertThat(fallbacks(lb)).as("connections made to the last known address").hasValueSatisfying(n -> assertThat(n).isGreaterThanOrEqualTo(2.0));

            dns.up = true;
            a.dropConnections();
            assertThat(lb.get("/").body()).isEqualTo("a");
        }
    }

    @Test
    void aMemberWhoseNameNeverResolvedIsUnreachable() throws Exception {
        SwitchedDns dns = new SwitchedDns();
        dns.up = false;
        try (StubMember a = StubMember.start("a"); TestBalancer lb = TestBalancer.start(settings(a, dns))) {
            assertThat(lb.get("/").statusCode()).as("the member's failed connect").isEqualTo(502);
            assertThat(lb.backend("a").isUp()).isFalse();
            assertThat(a.served()).isZero();
            assertThat(fallbacks(lb)).isEmpty();
        }
    }

    private static TestBalancer.Settings settings(StubMember member, SwitchedDns dns) {
        TestBalancer.Settings settings = new TestBalancer.Settings();
        settings.urlMembers = Map.of("a", URI.create("http://" + NAME + ":" + member.port()));
        settings.lookups = client -> dns;
        return settings;
    }

    private static Optional<Double> fallbacks(TestBalancer lb) {
        return Optional.ofNullable(lb.server.metrics().registry().find("cohort.balancer.resolution.fallbacks")
                .tag("host", NAME).counter()).map(Counter::count);
    }
}
