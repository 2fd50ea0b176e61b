package io.cohort.bench.balancer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cohort.bench.MachineInfo;
import io.cohort.bench.balancer.Measurement.Load;
import io.cohort.bench.balancer.Measurement.Target;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OverheadReportTest {

    private static Measurement run(int round, Load load, Target target, double rate, double p50, double cpu) {
        return new Measurement(round, 1, load, target, new WrkResult(rate, p50, p50, p50, p50, 1000, 0), cpu);
    }

    private final OverheadReport report = new OverheadReport(List.of(
            run(1, Load.SATURATING, Target.DIRECT, 10_000, 1.0, 20), run(1, Load.SATURATING, Target.BALANCER, 9_500, 1.2, 60),
            run(1, Load.SATURATING, Target.HAPROXY, 9_900, 1.05, 30),
            run(2, Load.SATURATING, Target.DIRECT, 8_000, 1.0, 20), run(2, Load.SATURATING, Target.BALANCER, 6_000, 1.5, 70),
            run(2, Load.SATURATING, Target.HAPROXY, 7_000, 1.1, 32),
            run(3, Load.SATURATING, Target.DIRECT, 10_000, 1.0, 22), run(3, Load.SATURATING, Target.BALANCER, 9_000, 1.1, 62),
            run(3, Load.SATURATING, Target.HAPROXY, 8_000, 1.2, 31),
            run(1, Load.SINGLE, Target.DIRECT, 20_000, 0.05, 40), run(1, Load.SINGLE, Target.BALANCER, 10_000, 0.10, 100),
            run(1, Load.SINGLE, Target.HAPROXY, 15_000, 0.07, 50)));

    @Test
    void comparesEachProxyWithDirectRoundByRoundAndTakesTheMedian() {
        assertThat(report.throughputRatio(Target.BALANCER, Load.SATURATING)).isCloseTo(0.90, within(1e-9));
        assertThat(report.addedMedianLatencyMillis(Target.BALANCER, Load.SATURATING)).isCloseTo(0.2, within(1e-9));
        assertThat(report.addedMedianLatencyMillis(Target.BALANCER, Load.SINGLE)).isCloseTo(0.05, within(1e-9));
        assertThat(report.throughputRatio(Target.HAPROXY, Load.SATURATING)).isCloseTo(0.875, within(1e-9));
        // own CPU per round: balancer 40, 50, 40; HAProxy 10, 12, 9
        assertThat(report.proxyCpuMicrosPerRequest(Target.BALANCER, Load.SATURATING)).isCloseTo(40, within(1e-9));
        assertThat(report.proxyCpuMicrosPerRequest(Target.HAPROXY, Load.SATURATING)).isCloseTo(10, within(1e-9));
    }

    @Test
    void summaryStatesEachTargetsVerdict() {
        Wrk wrk = new Wrk(2, 32, Duration.ofSeconds(10));
        String md = report.markdown("bench/run-balancer-overhead.sh", Map.of(Load.SATURATING, wrk, Load.SINGLE,
                new Wrk(1, 1, Duration.ofSeconds(10))), MachineInfo.now(), "1.00 1.00 1.00", "1.00 1.00 1.00",
                Instant.EPOCH, "- setup");

        assertThat(md).contains("`wrk -t2 -c32 -d10s --timeout 5s --latency http://127.0.0.1:PORT/hello/hi`")
                .contains("| throughput through the balancer (saturating load) | ≥ 90 % of direct | 90 % | met | 88 % |")
                .contains("| added median latency on loopback (single connection) | ≤ 0.3 ms | +0.050 ms | met | +0.020 ms |")
                .contains("| saturating | 0.96 | +0.150 ms | 4.00 |");
    }
}
