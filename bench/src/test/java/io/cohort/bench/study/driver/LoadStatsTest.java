package io.cohort.bench.study.driver;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LoadStatsTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void countsBySecondAndKeepsOnlyTheWindowInTheHistogram() {
        long origin = 1_000 * SECOND;
        LoadStats stats = new LoadStats(origin, 2 * SECOND);

        stats.page(origin - SECOND / 2, TimeUnit.MILLISECONDS.toNanos(900), false); // warm-up
        stats.page(origin + SECOND / 2, TimeUnit.MILLISECONDS.toNanos(10), false);
        stats.page(origin + SECOND / 2, TimeUnit.MILLISECONDS.toNanos(30), true);
        stats.failedWithoutResponse(origin + SECOND + 1);
        stats.scenario(origin + SECOND + 1, ScenarioOutcome.COMPLETED);
        stats.scenario(origin + SECOND + 2, ScenarioOutcome.SESSION_LOST);
        stats.page(origin + 2 * SECOND, TimeUnit.MILLISECONDS.toNanos(5000), false); // after the window

        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::second).containsExactly(-1L, 0L, 1L, 2L);
        assertThat(stats.windowSeconds()).hasSize(2);
        LoadStats.SecondCounts first = stats.windowSeconds().get(0);
        assertThat(first.pages()).isEqualTo(2);
        assertThat(first.errors()).isEqualTo(1);
        assertThat(first.meanMs()).isEqualTo(20.0);
        LoadStats.SecondCounts second = stats.windowSeconds().get(1);
        assertThat(second.errors()).isEqualTo(1);
        assertThat(second.scenarios()).isEqualTo(1);
        assertThat(second.sessionsLost()).isEqualTo(1);
        assertThat(stats.windowHistogram().getTotalCount()).isEqualTo(2);
        assertThat(stats.windowHistogram().getMaxValue()).isBetween(29_000L, 31_000L);
    }

    @Test
    void aSecondInWhichNothingHappenedIsListedWithZeroCounts() {
        long origin = 1_000 * SECOND;
        LoadStats stats = new LoadStats(origin, 5 * SECOND);

        stats.page(origin + SECOND / 2, TimeUnit.MILLISECONDS.toNanos(10), false);
        stats.page(origin + 3 * SECOND + 1, TimeUnit.MILLISECONDS.toNanos(10), false); // seconds 1 and 2: a stall

        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::second).containsExactly(0L, 1L, 2L, 3L);
        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::pages).containsExactly(1L, 0L, 0L, 1L);
        assertThat(stats.windowSeconds()).as("the whole window, its quiet end included")
                .extracting(LoadStats.SecondCounts::pages).containsExactly(1L, 0L, 0L, 1L, 0L);
    }

    @Test
    void groupsFailureMessagesThatDifferOnlyInNumbersKeepingTheirHttpStatus() {
        LoadStats stats = new LoadStats(0, SECOND);
        stats.example(ScenarioOutcome.SESSION_LOST, "cart holds {} but the user added {BI-3=1}");
        stats.example(ScenarioOutcome.SESSION_LOST, "cart holds {} but the user added {BI-9=1}");
        stats.example(ScenarioOutcome.ERROR, "503 at search");
        stats.example(ScenarioOutcome.ERROR, "502 to POST /signon from http://127.0.0.1:8001/jpetstore/signon");
        stats.example(ScenarioOutcome.ERROR, "502 to POST /signon from http://127.0.0.1:8002/jpetstore/signon");
        stats.example(ScenarioOutcome.ERROR, "403 to POST /signon from http://127.0.0.1:8002/jpetstore/signon");

        assertThat(stats.failureExamples()).contains("SESSION_LOST ×2: cart holds {} but the user added {BI-#=#}",
                "ERROR ×1: 503 at search", "ERROR ×2: 502 to POST /signon from http://#.#.#.#:#/jpetstore/signon",
                "ERROR ×1: 403 to POST /signon from http://#.#.#.#:#/jpetstore/signon");
    }
}
