package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cohort.bench.study.driver.LoadStats;
import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.NodeSample;
import io.cohort.bench.study.model.Summary;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What a window's summary takes from the node samples. */
class ResultAssemblyTest {

    @Test
    void onlySamplesWhollyInsideTheWindowCount() {
        Duration window = Duration.ofSeconds(8);
        List<NodeSample> samples = new ArrayList<>();
        samples.add(new NodeSample("n1", 0.3, 20, 20)); // mostly before the window
        for (int i = 1; i <= 7; i++) {
            samples.add(new NodeSample("n1", i + 0.3, 100, 100));
        }
        samples.add(new NodeSample("n1", 8.3, 50, 50)); // partly after the window, when no new pages went out

        Summary summary = ResultAssembly.summary(new LoadStats(System.nanoTime(), window.toNanos()), window, samples, true);

        assertThat(summary.cpuPercentPerNode()).isCloseTo(100, within(0.001));
        assertThat(summary.interconnectKBpsPerNode()).isCloseTo(100, within(0.001));
    }

    @Test
    void errorAnswersAreNoPagesServed() {
        // 4 seconds: 100 answers a second, of which the balancer's fast 503 pages are 60 in the last two
        List<SecondCounts> seconds = List.of(new SecondCounts(0, 100, 0, 10, 1, 0, 0, 0),
                new SecondCounts(1, 100, 0, 10, 1, 0, 0, 0), new SecondCounts(2, 100, 60, 4, 1, 0, 0, 60),
                new SecondCounts(3, 100, 60, 4, 1, 0, 0, 60));

        Summary summary = ResultAssembly.summary(seconds, new Histogram(3_600_000_000L, 3), Duration.ofSeconds(4),
                List.of(), true);

        assertThat(summary.pages()).isEqualTo(280);
        assertThat(summary.pagesPerSecond()).isCloseTo(70, within(0.001));
        assertThat(summary.errors()).isEqualTo(120);
    }
}
