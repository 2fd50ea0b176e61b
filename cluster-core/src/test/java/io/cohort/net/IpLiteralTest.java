package io.cohort.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** IP literals are read without any resolver: the same address as the JDK reads from a literal, none from anything else. */
class IpLiteralTest {

    @ParameterizedTest
    @ValueSource(strings = {"192.0.2.1", "0.0.0.0", "255.255.255.255", "10.0.0.010", "::", "::1", "1::", "2001:db8::1",
            "2001:DB8:0:0:0:0:0:1", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7::", "::2:3:4:5:6:7:8", "::ffff:192.0.2.1",
            "1:2:3:4:5:6:192.0.2.1", "::192.0.2.1", "fe80::abcd:ef01"})
    void aLiteralIsTheAddressTheJdkReadsFromIt(String literal) throws Exception {
        assertThat(IpLiteral.parse(literal)).isEqualTo(InetAddress.getByName(literal)); // a literal: getByName looks nothing up
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "999.1.2.3", "256.0.0.1", "300.300.300.300", "1.2.3", "1.2.3.4.5", "1..2.3", "1.2.3.",
            "0123.1.1.1", "1.2.3.-4", "+1.2.3.4", "localhost", "example.com", "1e2.1.1.1", ":", ":::", "::1::", "1::2::3",
            ":1::", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8::", "1:2:3:4:5:6:7", "12345::", "g::1", "fe80::1%eth0",
            "::ffff:1.2.3.256", "1.2.3.4::", "1:2:3:4:5:6:7:1.2.3.4", "::\u0661", "[::1]", "1:2:3:4:5:6:7:8 "})
    void anythingElseIsNoLiteral(String text) {
        assertThat(IpLiteral.parse(text)).isNull();
    }
}
