package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsTest {

    @Test
    void peerThroughputTargetIsMetAtNinetySixPercentAndMissedAtNinety() {
        assertThat(target(run(0.96), 0).status()).isEqualTo(TargetResult.Status.MET);
        TargetResult missed = target(run(0.90), 0);
        assertThat(missed.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(missed.measured()).contains("90.0 % (−10.0 %) at 2 nodes, high (700 users per node)");
    }

    @Test
    void throughputIsJudgedAtTheHeaviestLoad() {
        SyntheticRun run = new SyntheticRun()
                .add("none", 2, "medium", 200, 10, 40, 0).add("2211", 2, "medium", 199, 10, 45, 2000)
                .add("none", 2, "high", 360, 200, 80, 0).add("2211", 2, "high", 300, 300, 90, 3000);

        TargetResult result = target(run, 0);

        assertThat(result.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(result.measured()).contains("high (700 users per node)");
    }

    @Test
    void lossesAreMeasuredAgainstTheStudysReference() {
        SyntheticRun run = run(0.96).add("2221", 2, "high", 360 * 0.96 * 0.6, 40, 90, 5000)
                .add("2111", 2, "high", 360 * 0.9, 30, 90, 2600);

        assertThat(target(run, 1).status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(target(run, 1).measured()).contains("2221", "vs 2211", "60.0 %");
        assertThat(target(run, 2).status()).isEqualTo(TargetResult.Status.MET);
        assertThat(target(run, 3).status()).isEqualTo(TargetResult.Status.NOT_MEASURED);
    }

    @Test
    void failoverTargetsCountLostSessions() {
        SyntheticRun none = run(0.96);
        SyntheticRun clean = run(0.96).failover("2212", 2, "medium", 190, 0).failover("2211", 2, "medium", 190, 12);
        SyntheticRun lossy = run(0.96).failover("2212", 2, "medium", 190, 2)
                .failover("2211", 2, "medium", 190, SyntheticRun.MEDIUM_USERS + 1);

        assertThat(target(none, 4).status()).isEqualTo(TargetResult.Status.NOT_MEASURED);
        assertThat(target(clean, 4).status()).isEqualTo(TargetResult.Status.MET);
        assertThat(target(clean, 5).status()).isEqualTo(TargetResult.Status.MET);
        assertThat(target(lossy, 4).status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(target(lossy, 4).measured()).contains("2 lost (limit 0)");
        assertThat(target(lossy, 5).status()).isEqualTo(TargetResult.Status.NOT_MET);
    }

    @Test
    void repeatedRoundsAreJudgedOnTheMedianOfTheirPairedRatios() {
        // none drifts from 500 to 800 pages/s between rounds; 2211 follows it within its round
        SyntheticRun run = new SyntheticRun()
                .addRound("none", 2, "high", 1, 500).addRound("2211", 2, "high", 1, 480)
                .addRound("2211", 2, "high", 2, 800).addRound("none", 2, "high", 2, 800)
                .addRound("none", 2, "high", 3, 640).addRound("2211", 2, "high", 3, 560)
                .addRound("2211", 2, "high", 4, 700).addRound("none", 2, "high", 4, 700)
                .addRound("none", 2, "high", 5, 600).addRound("2211", 2, "high", 5, 588);

        TargetResult result = target(run, 0);

        // ratios 96 %, 100 %, 87.5 %, 100 %, 98 % -> median 98 %, although 2211's first round alone (480) is
        // below none's later rounds
        assertThat(result.status()).isEqualTo(TargetResult.Status.MET);
        assertThat(result.measured()).contains("median of 5 paired rounds: 98.0 % (−2.0 %)",
                "rounds 96.0 %, 100.0 %, 87.5 %, 100.0 %, 98.0 %", "range 87.5 % to 100.0 %",
                "4 of 5 rounds meet the rule", "at 2 nodes, high (700 users per node)");
    }

    @Test
    void aRoundThatOnlyOneOfThePatternsHasIsLeftOut() {
        SyntheticRun run = new SyntheticRun()
                .addRound("none", 2, "high", 1, 500).addRound("2211", 2, "high", 1, 440)
                .addRound("2211", 2, "high", 2, 800).addRound("none", 2, "high", 2, 800)
                .addRound("none", 2, "high", 3, 640);

        TargetResult result = target(run, 0);

        assertThat(result.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(result.measured()).contains("median of 2 paired rounds: 94.0 %", "rounds 88.0 %, 100.0 %");
    }

    @Test
    void aReferenceThatAnsweredFarFasterThanTheUsersThinkIsNoSaturationAndJudgesNothing() {
        SyntheticRun idle = new SyntheticRun().add("none", 2, "high", 1321, 3, 33, 0)
                .add("2211", 2, "high", 1318, 3, 40, 1700);
        SyntheticRun busy = new SyntheticRun().add("none", 2, "high", 1500, 30, 95, 0)
                .add("2211", 2, "high", 1480, 40, 98, 1700);

        TargetResult result = target(idle, 0);

        assertThat(result.status()).isEqualTo(TargetResult.Status.NOT_MEASURED);
        assertThat(result.measured()).contains("99.8 %", "Not at saturation: none answered in a mean 3.0 ms against "
                + "300 ms of think time", "higher --load");
        assertThat(target(busy, 0).status()).isEqualTo(TargetResult.Status.MET);
    }

    private static SyntheticRun run(double peerShare) {
        return new SyntheticRun().add("none", 2, "high", 360, 200, 80, 0)
                .add("2211", 2, "high", 360 * peerShare, 220, 90, 2000);
    }

    private static TargetResult target(SyntheticRun run, int index) {
        List<TargetResult> results = new Targets(run.data()).evaluate();
        return results.get(index);
    }
}
