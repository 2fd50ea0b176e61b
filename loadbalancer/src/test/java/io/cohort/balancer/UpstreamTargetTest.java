package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

/** The request target members are sent: percent-encoded where java.net.URI would refuse it, never decoded, refused when malformed. */
class UpstreamTargetTest {

    @Test
    void aTargetWithNothingToEncodeIsSentAsItIs() {
        String target = "/shop/cart;jsessionid=abc.n1?item=EST-4&qty=2&x=a:b@c/d?e!$'()*+,=~";

        assertThat(UpstreamTarget.of(target)).isSameAs(target);
    }

    @Test
    void charactersNotAllowedInAPathOrQueryArePercentEncoded() {
        assertThat(UpstreamTarget.of("/x?q=a|b{c}")).isEqualTo("/x?q=a%7Cb%7Bc%7D");
        assertThat(UpstreamTarget.of("/x?q=^[a]\\`\"<> ")).isEqualTo("/x?q=%5E%5Ba%5D%5C%60%22%3C%3E%20");
        assertThat(URI.create("http://127.0.0.1:8080" + UpstreamTarget.of("/x{1}?q=a|b")).getRawQuery()).isEqualTo("q=a%7Cb");
    }

    @Test
    void nonAsciiCharactersAreEncodedAsUtf8Octets() {
        assertThat(UpstreamTarget.of("/x?q=caf\u00e9\u20ac\ud83d\ude00")).isEqualTo("/x?q=caf%C3%A9%E2%82%AC%F0%9F%98%80");
    }

    @Test
    void escapesAreKeptNotDecodedOrEncodedAgain() {
        assertThat(UpstreamTarget.of("/a%2Fb?q=%7c%25|")).isEqualTo("/a%2Fb?q=%7c%25%7C");
    }

    @Test
    void aMalformedEscapeOrATargetNotInOriginFormCannotBeForwarded() {
        assertThat(UpstreamTarget.of("/x?discount=100%")).isNull();
        assertThat(UpstreamTarget.of("/x?q=%4")).isNull();
        assertThat(UpstreamTarget.of("/x?q=%zz")).isNull();
        assertThat(UpstreamTarget.of("*")).isNull();
        assertThat(UpstreamTarget.of("")).isNull();
        assertThat(UpstreamTarget.of(null)).isNull();
    }
}
