package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.cohort.config.BalancerConfig;
import io.cohort.config.BalancerMember;
import io.cohort.config.ConfigException;
import io.cohort.config.ConfigLoader;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A member's {@code url} is where its connector listens: scheme, host and port. The balancer passes each request's
 * path on unchanged and rewrites nothing in the answer, so a member behind a path prefix
 * ({@code http://host:8080/prefix}) would get requests it cannot place and set cookies and redirects for paths the
 * client never sees: such a url is refused, in a file at its line and column.
 */
class MemberUrlTest {

    @Test
    void aMemberUrlWithAPathIsRefusedAtItsLineAndColumn() {
        ConfigException refused = assertThatExceptionOfType(ConfigException.class).isThrownBy(() -> parse("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer>
                    <balancer-member name="n1" url="http://127.0.0.1:8081"/>
                    <balancer-member name="n2" url="http://127.0.0.1:8082/shop"/>
                  </balancer>
                </cohort>""")).actual();

        assertThat(refused).hasMessage("balancer.xml:4:32: invalid value url=\"http://127.0.0.1:8082/shop\" on <balancer-member>; "
                + "expected an http:// or https:// URL with a host (an IP address, or a name of letters, digits, '-' and '.', "
                + "no '_') and an optional port from 1 to 65535, and no path (e.g. http://127.0.0.1:8081)");
    }

    @Test
    void aMemberUrlMayEndInASlash() throws Exception {
        BalancerConfig config = parse("""
                <cohort xmlns="urn:cohort:config:1">
                  <balancer><balancer-member name="n1" url="http://127.0.0.1:8081/"/></balancer>
                </cohort>""");

        assertThat(config.members()).extracting(BalancerMember::url).containsExactly(URI.create("http://127.0.0.1:8081/"));
    }

    @Test
    void aMemberWithAPathBuiltInCodeIsRefusedToo() {
        URI url = URI.create("http://127.0.0.1:8082/shop");
        BalancerMember member = new BalancerMember("n2", "h", url, URI.create("http://127.0.0.1:9082/health"), 1);

        try (BalancerMetrics metrics = new BalancerMetrics("unit-" + UUID.randomUUID())) {
            assertThatIllegalArgumentException().isThrownBy(() -> new Backend("lb", member, false, new HealthState(1, 1), metrics))
                    .withMessageContaining("n2").withMessageContaining("http://127.0.0.1:8082/shop");
        }
    }

    @Test
    void requestsKeepTheirPathAtAMemberWhoseUrlEndsInASlash() throws Exception {
        URI url = URI.create("http://127.0.0.1:8081/");
        BalancerMember member = new BalancerMember("n1", "h", url, url, 1);

        try (BalancerMetrics metrics = new BalancerMetrics("unit-" + UUID.randomUUID())) {
            assertThat(new Backend("lb", member, false, new HealthState(1, 1), metrics).baseUri()).isEqualTo("http://127.0.0.1:8081");
        }
    }

    private static BalancerConfig parse(String xml) throws ConfigException {
        return ConfigLoader.parseBalancer("balancer.xml", new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), Path.of("."),
                Map.<String, String>of()::get);
    }
}
