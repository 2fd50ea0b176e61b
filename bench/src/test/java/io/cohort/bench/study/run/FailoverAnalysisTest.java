package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.bench.study.driver.LoadStats.SecondCounts;
import io.cohort.bench.study.model.FailoverOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FailoverAnalysisTest {

    private static List<SecondCounts> seconds(long[] pages, long[] lost, long[] errors) {
        List<SecondCounts> list = new ArrayList<>();
        for (int s = 0; s < pages.length; s++) {
            list.add(new SecondCounts(s, pages[s], errors[s], 10, 1, lost[s], 0, 0));
        }
        return list;
    }

    @Test
    void countsLossesAndErrorsFromTheKillAndTimesTheRecoveryToTheSurvivorsShare() {
        // 2 nodes at 100 pages/s; killed at 4.5 s; survivors' share: 50, 90 % of it: 45
        long[] pages = {100, 100, 100, 100, 60, 20, 46, 50, 48, 70};
        long[] lost = {0, 1, 0, 0, 0, 3, 1, 0, 0, 0};
        long[] errors = {0, 0, 0, 0, 2, 5, 0, 0, 0, 0};

        FailoverOutcome outcome = FailoverAnalysis.analyse(seconds(pages, lost, errors), "n1", 4.5, 2);

        assertThat(outcome.killedNode()).isEqualTo("n1");
        assertThat(outcome.sessionsLost()).isEqualTo(4);
        assertThat(outcome.errorsAfterKill()).isEqualTo(7);
        assertThat(outcome.recoverySeconds()).isEqualTo(2.5); // seconds 7, 8, 9 are ≥ 45, without errors or losses
    }

    @Test
    void saysNeverWhenThroughputDoesNotComeBack() {
        long[] pages = {100, 100, 100, 10, 10, 10, 10};
        long[] zero = new long[pages.length];

        assertThat(FailoverAnalysis.analyse(seconds(pages, zero, zero), "n1", 2.2, 2).recoverySeconds()).isNull();
    }

    @Test
    void usersWhoKeepFailingAreNoRecoveryThoughTheOthersServeTheSurvivorsShare() {
        // 2 nodes at 100 pages/s, killed at 2.5 s; the users of the killed node's balancer fail every second from then
        // on, while the other balancer's users go on at 50 good pages a second (above 45, the survivors' share)
        List<SecondCounts> window = new ArrayList<>();
        for (long s = 0; s < 12; s++) {
            long failed = s >= 3 ? 5 : 0;
            window.add(new SecondCounts(s, s < 3 ? 100 : 50 + failed, failed, 10, 1, 0, 0, failed));
        }

        assertThat(FailoverAnalysis.analyse(window, "n1", 2.5, 2).recoverySeconds()).isNull();
    }

    @Test
    void errorPagesAreNoRecovery() {
        // 2 nodes at 100 pages/s, killed at 2.5 s; from second 3 on the balancer answers 80 pages a second, 60 of them
        // its 503 page: 20 good ones, below the survivors' 45, until second 7
        List<SecondCounts> window = new ArrayList<>();
        for (long s = 0; s < 10; s++) {
            long failed = s >= 3 && s < 7 ? 60 : 0;
            window.add(new SecondCounts(s, s < 3 ? 100 : 80, failed, 10, 1, 0, 0, failed));
        }

        assertThat(FailoverAnalysis.analyse(window, "n1", 2.5, 2).recoverySeconds()).as("back from second 7 on")
                .isEqualTo(4.5);
    }

    @Test
    void aSecondMissingFromTheSeriesBreaksTheStreakOfRecoveredSeconds() {
        // 2 nodes at 100 pages/s, killed at 3.5 s; seconds 5 to 9 are not in the series (nothing happened in them)
        List<SecondCounts> window = new ArrayList<>();
        for (long s : new long[] {0, 1, 2, 3, 4, 10, 11, 12}) {
            window.add(new SecondCounts(s, s == 4 ? 50 : 100, 0, 10, 1, 0, 0, 0));
        }

        assertThat(FailoverAnalysis.analyse(window, "n1", 3.5, 2).recoverySeconds()).as("back from second 10 on")
                .isEqualTo(6.5);
    }
}
