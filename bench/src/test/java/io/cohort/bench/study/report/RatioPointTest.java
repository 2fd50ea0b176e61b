package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RatioPointTest {

    @Test
    void ratiosDivideByTheOneNodeNoneAtTheSameLoad() {
        RunData data = new SyntheticRun()
                .add("none", 1, "medium", 100, 10, 40, 0)
                .add("none", 1, "high", 180, 20, 80, 0)
                .add("2211", 2, "medium", 190, 12, 46, 2000)
                .add("2211", 2, "high", 342, 50, 90, 3000)
                .data();

        RatioPoint medium = RatioPoint.of(data, "2211", 2, "medium").orElseThrow();
        RatioPoint high = RatioPoint.of(data, "2211", 2, "high").orElseThrow();

        assertThat(medium.baseline()).isEqualTo(Baseline.ONE_NODE_NONE);
        assertThat(medium.throughput()).isCloseTo(1.90, within(1e-9));
        assertThat(medium.responseTime()).isCloseTo(1.20, within(1e-9));
        assertThat(high.throughput()).isCloseTo(1.90, within(1e-9));
        assertThat(high.responseTime()).isCloseTo(2.50, within(1e-9));
    }

    @Test
    void withoutTheOneNodeBaselineRatiosFallBackToNoneOfTheSameSizeAndSaySo() {
        RunData data = new SyntheticRun()
                .add("none", 2, "medium", 200, 10, 40, 0)
                .add("2211", 2, "medium", 190, 12, 46, 2000)
                .add("2211", 4, "medium", 380, 12, 46, 2000)
                .data();

        RatioPoint two = RatioPoint.of(data, "2211", 2, "medium").orElseThrow();

        assertThat(two.baseline()).isEqualTo(Baseline.SAME_SIZE_NONE);
        assertThat(two.throughput()).isCloseTo(0.95, within(1e-9));
        assertThat(two.baseline().description()).contains("FALLBACK");
        assertThat(RatioPoint.of(data, "2211", 4, "medium")).isEmpty();
    }

    @Test
    void failoverExperimentsAreNeverABaselineOrARatio() {
        RunData data = new SyntheticRun()
                .add("none", 1, "medium", 100, 10, 40, 0)
                .failover("2211", 2, "medium", 190, 0)
                .data();

        assertThat(RatioPoint.of(data, "2211", 2, "medium")).isEmpty();
        assertThat(data.failovers()).hasSize(1);
    }
}
