package io.cohort.bench.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WrkResultTest {

    static final String OUTPUT = """
            Running 4s test @ http://127.0.0.1:33087/hello/hi
              2 threads and 32 connections
              Thread Stats   Avg      Stdev     Max   +/- Stdev
                Latency     5.44ms    7.00ms  93.97ms   96.57%
                Req/Sec     3.51k     0.92k    5.37k    66.25%
              Latency Distribution
                 50%  412.00us
                 75%    5.80ms
                 90%    8.06ms
                 99%    1.20s
              27945 requests in 4.01s, 7.01MB read
              Socket errors: connect 0, read 2, write 0, timeout 3
              Non-2xx or 3xx responses: 4
            Requests/sec:   6976.64
            Transfer/sec:      1.75MB
            """;

    @Test
    void parsesRateAndPercentilesInMilliseconds() {
        WrkResult result = WrkResult.parse(OUTPUT);

        assertThat(result.requestsPerSecond()).isEqualTo(6976.64);
        assertThat(result.requests()).isEqualTo(27945);
        assertThat(result.p50Millis()).isCloseTo(0.412, within(1e-9));
        assertThat(result.p75Millis()).isEqualTo(5.80);
        assertThat(result.p90Millis()).isEqualTo(8.06);
        assertThat(result.p99Millis()).isEqualTo(1200.0);
    }

    @Test
    void countsSocketErrorsAndNon2xxResponsesAsErrors() {
        assertThat(WrkResult.parse(OUTPUT).errors()).isEqualTo(9);
    }

    @Test
    void refusesOutputWithoutLatencyDistribution() {
        String withoutLatency = OUTPUT.replaceAll("(?m)^\\s+\\d+%.*\\n", "");

        assertThatThrownBy(() -> WrkResult.parse(withoutLatency)).hasMessageContaining("--latency");
    }
}
