package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeerComparisonTest {

    @TempDir
    Path dir;

    /**
     * A peer run at 2 nodes, high load: both baselines at 300 pages/s and 80 % CPU per node (5.33 CPU ms/page).
     *
     * @param cohort2211 Cohort 2211's pages/s and CPU % per node
     * @param backup     BackupManager's pages/s and CPU % per node
     * @param haproxyPages pages/s of the same Cohort 2211 nodes behind HAProxy (the 2211 row is behind Cohort's balancer)
     */
    private static SyntheticRun peers(double[] cohort2211, double[] backup, long cohortLost, long backupLost,
            double haproxyPages) {
        return new SyntheticRun()
                .add("cohort", "none", 2, "high", 300, 20, 80, 0, java.util.List.of())
                .add("cohort", "2211", 2, "high", cohort2211[0], 22, cohort2211[1], 100, java.util.List.of())
                .add("cohort-haproxy", "2211", 2, "high", haproxyPages, 22, 84, 100, java.util.List.of())
                .add("cohort", "2212", 2, "high", 280, 25, 86, 100, java.util.List.of())
                .add("tomcat-none", "none", 2, "high", 300, 20, 80, 0, java.util.List.of())
                .add("tomcat-delta", "delta", 2, "high", 270, 30, 95, 150, java.util.List.of())
                .add("tomcat-backup", "backup", 2, "high", backup[0], 30, backup[1], 120, java.util.List.of())
                .add("cohort", "3211", 2, "high", 250, 40, 85, 50, java.util.List.of())
                .addUnmeasuredInterconnect("jetty-jdbc", "jdbc", 2, "high", 240, 45, 90)
                .failover("cohort", "2211", 2, "high", 280, cohortLost)
                .failover("cohort", "2212", 2, "high", 270, 0)
                .failover("tomcat-delta", "delta", 2, "high", 260, 2)
                .failover("tomcat-backup", "backup", 2, "high", 260, backupLost);
    }

    private static SyntheticRun met() {
        return peers(new double[] {291, 84}, new double[] {270, 96}, 0, 3, 300);
    }

    @Test
    void overheadGoalHoldsWhenCohortCostsAtMostHalfOfBackupManagerInThroughputAndCpuPerPage() {
        // Cohort: 3 % throughput, +8.2 % CPU/page; BackupManager: 10 %, +33.3 %
        TargetResult goal = new PeerComparison(met().data()).overheadGoal();

        assertThat(goal.status()).isEqualTo(TargetResult.Status.MET);
        assertThat(goal.measured()).contains("Cohort 3.0 %", "BackupManager 10.0 %", "Cohort 8.2 %",
                "BackupManager 33.3 %");
    }

    @Test
    void overheadGoalFailsOnThroughputOrOnCpuPerPageAlone() {
        SyntheticRun slower = peers(new double[] {282, 79}, new double[] {270, 96}, 0, 3, 300);
        SyntheticRun hungrier = peers(new double[] {291, 100}, new double[] {270, 96}, 0, 3, 300);

        TargetResult throughput = new PeerComparison(slower.data()).overheadGoal();
        TargetResult cpu = new PeerComparison(hungrier.data()).overheadGoal();

        assertThat(throughput.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(throughput.measured()).contains("Cohort 6.0 %", "(fails); CPU-per-page overhead");
        assertThat(cpu.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(cpu.measured()).contains("(holds); CPU-per-page overhead", "(fails)");
    }

    @Test
    void withoutBackupManagerOverheadCohortMustShowNoneEither() {
        assertThat(PeerComparison.withinShare(0.0, -0.02)).isTrue();
        assertThat(PeerComparison.withinShare(0.01, -0.02)).isFalse();
        assertThat(PeerComparison.withinShare(0.05, 0.10)).isTrue();
        assertThat(PeerComparison.withinShare(0.051, 0.10)).isFalse();
    }

    @Test
    void sessionsGoalComparesEveryCohortFailoverWithBackupManager() {
        TargetResult met = new PeerComparison(met().data()).sessionsGoal();
        TargetResult missed = new PeerComparison(peers(new double[] {291, 84}, new double[] {270, 96}, 4, 3, 300)
                .data()).sessionsGoal();

        assertThat(met.status()).isEqualTo(TargetResult.Status.MET);
        assertThat(met.measured()).isEqualTo("Cohort 2211: 0, Cohort 2212: 0, BackupManager: 3");
        assertThat(missed.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(missed.measured()).contains("Cohort 2211: 4");
    }

    @Test
    void balancerGoalNeedsNinetyPercentOfHaproxysThroughput() {
        TargetResult met = new PeerComparison(peers(new double[] {291, 84}, new double[] {270, 96}, 0, 3, 306.3)
                .data()).balancerGoal();
        TargetResult missed = new PeerComparison(peers(new double[] {291, 84}, new double[] {270, 96}, 0, 3, 335.6)
                .data()).balancerGoal();

        assertThat(met.status()).isEqualTo(TargetResult.Status.MET);
        assertThat(met.measured()).contains("95.0 % of HAProxy's");
        assertThat(missed.status()).isEqualTo(TargetResult.Status.NOT_MET);
        assertThat(missed.measured()).contains("86.7 % of HAProxy's");
    }

    @Test
    void goalsAreNotMeasuredWithoutTheirExperiments() {
        SyntheticRun partial = new SyntheticRun().add("tomcat-delta", "delta", 2, "high", 270, 30, 95, 150,
                java.util.List.of());

        assertThat(new PeerComparison(partial.data()).goals()).extracting(TargetResult::status)
                .containsOnly(TargetResult.Status.NOT_MEASURED);
    }

    @Test
    void perPageFiguresComeFromTheWholeClusterAndUnmeasuredBytesStayUnmeasured() {
        PeerComparison comparison = new PeerComparison(met().data());

        var backup = comparison.steady(PeerComparison.BACKUP).orElseThrow();
        // 96 % CPU per node × 2 nodes / 270 pages/s = 7.11 ms per page; 120 KB/s × 2 / 270 = 889 bytes per page
        assertThat(PeerComparison.cpuMsPerPage(backup)).isCloseTo(7.111, org.assertj.core.data.Offset.offset(0.01));
        assertThat(PeerComparison.bytesPerPage(backup).getAsDouble()).isCloseTo(888.9,
                org.assertj.core.data.Offset.offset(0.1));
        assertThat(PeerComparison.bytesPerPage(comparison.steady(PeerComparison.JETTY).orElseThrow())).isEmpty();
    }

    @Test
    void reportHasThePeerSectionWithChartsOnlyForAPeerRun() throws Exception {
        Path peers = met().write(dir.resolve("peers"));
        Path study = new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0).add("none", 2, "medium", 198, 10, 40, 0)
                .add("2211", 2, "medium", 190, 11, 45, 100).write(dir.resolve("study"));

        StudyReport.write(peers);
        StudyReport.write(study);

        String md = Files.readString(peers.resolve("summary.md"), StandardCharsets.UTF_8);
        assertThat(md).contains("## Peer comparison", "### Goals", "Tomcat BackupManager (1 backup, async)",
                "Replication overhead against each system's own no-replication baseline", "not measured",
                "(charts/peers-throughput.svg)", "(charts/peers-overhead.svg)");
        assertThat(peers.resolve("charts").resolve("peers-cpu-per-page.png")).isRegularFile();
        assertThat(Files.readString(study.resolve("summary.md"), StandardCharsets.UTF_8))
                .doesNotContain("Peer comparison");
    }
}
