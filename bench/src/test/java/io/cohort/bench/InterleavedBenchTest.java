package io.cohort.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cohort.bench.InterleavedBench.Pair;
import io.cohort.bench.study.run.DataSetSize;
import io.cohort.bench.study.run.InterleavedComparison.Settings;
import io.cohort.bench.study.run.InterleavedComparison.Window;
import io.cohort.bench.study.run.SentTraffic;
import io.cohort.bench.sut.NodeThreads;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterleavedBenchTest {

    private static final List<List<String>> NO_OPTIONS = List.of(List.of(), List.of());

    /**
     * A turn of 20 measured seconds serving {@code pagesPerSecond}, with 0.5 s of node CPU per 1,000 pages: 0.4 ms
     * per page in request threads and 0.1 ms in replication's threads for 2211, in the JIT for none.
     */
    private static Window turn(int index, boolean recorded, double pagesPerSecond) {
        long pages = Math.round(pagesPerSecond * 20);
        return new Window(index, index % 2 == 0 ? "none" : "2211", recorded, 20, pages, 3, 0, 0, pages * 0.0005,
                0.1, 5, 0.99, pages * (index % 2 == 0 ? 12 : 15), Map.of(NodeThreads.REQUESTS, pages * 0.0004,
                        index % 2 == 0 ? NodeThreads.JIT : NodeThreads.REPLICATION, pages * 0.0001),
                index % 2 == 0 ? SentTraffic.NOT_MEASURED : new SentTraffic(pages * 0.8, pages * 0.4, pages * 2500.0));
    }

    private static List<Window> turns(double... pagesPerSecond) {
        List<Window> turns = new ArrayList<>();
        for (int k = 0; k < pagesPerSecond.length; k++) {
            turns.add(turn(k, k >= 2, pagesPerSecond[k]));
        }
        return turns;
    }

    @Test
    void eachRecordedTurnOfBIsJudgedAgainstTheMeanOfTheATurnsAroundIt() {
        // turns 0 and 1 are warm-up; A turns at even indexes drift upwards, B turns at odd ones
        List<Pair> pairs = InterleavedBench.pairs(turns(50, 10, 100, 90, 110, 95, 120));

        assertThat(pairs).hasSize(2);
        assertThat(pairs.get(0).before().index()).isEqualTo(2);
        assertThat(pairs.get(0).pattern().index()).isEqualTo(3);
        assertThat(pairs.get(0).after().index()).isEqualTo(4);
        assertThat(pairs.get(0).ratio()).isCloseTo(90.0 / 105, within(1e-9));
        assertThat(pairs.get(1).ratio()).isCloseTo(95.0 / 115, within(1e-9));
        assertThat(pairs.get(1).cpuRatio()).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aTurnOfBWithoutARecordedATurnOnBothSidesIsNotPaired() {
        assertThat(InterleavedBench.pairs(turns(50, 10, 100, 90))).isEmpty();
        assertThat(InterleavedBench.pairs(turns(50, 10))).isEmpty();
    }

    @Test
    void theSummaryStatesTheMedianRatioAndWhatLeakedFromTheIdleSide() {
        Settings settings = new Settings(Path.of("home"), Path.of("shop.war"), DataSetSize.QUICK,
                List.of("none", "2211"), List.of(List.of(), List.of("-Dcohort.transport=TCP")), 2, 400, Duration.ofSeconds(30), Duration.ofSeconds(10), 1, 3, 1,
                Duration.ofMinutes(1));
        String summary = InterleavedBench.summary(settings, turns(50, 10, 100, 90, 110, 99, 120, 110, 100),
                Instant.EPOCH, Instant.EPOCH.plusSeconds(300), "0.5", "bench/run-interleaved.sh");

        // ratios 90/105 = 85.7 %, 99/115 = 86.1 %, 110/110 = 100 %: the median is the middle one
        assertThat(summary).contains("**2211 served 86.1 % of none's pages/s** (median of 3 pairs; range 85.7–100.0 %)");
        assertThat(summary).contains("the idle side served 21 pages").doesNotContain("overlapped");
        assertThat(summary).contains("B's nodes (2211) ran with the JVM options `-Dcohort.transport=TCP`.")
                .doesNotContain("A's nodes");
        assertThat(summary).contains("| 2 | 110.0 | 99.0 | 120.0 | 86.1 % |");
        assertThat(summary).contains("per page (median of the recorded turns): none 12.0, 2211 15.0.");
        assertThat(summary).contains("Sent for replication by the nodes (median of the recorded turns, their "
                + "`/metrics`): none not measured; 2211 0.80 changes and 2.50 KB per page, 2.00 changes per message.");
        assertThat(summary).contains("| requests | 0.400 | 0.400 | +0.000 |", "| replication | 0.000 | 0.100 | +0.100 |",
                "| jit | 0.100 | 0.000 | -0.100 |", "| ended | 0.000 | 0.000 | +0.000 |",
                "| sum of the medians | 0.500 | 0.500 | +0.000 |");
    }

    @Test
    void measuredPartsWhereTheIdleSideServedMoreThanOneInTwentyOfThePagesAreReportedAsOverlapping() {
        assertThat(InterleavedBench.overlap(50, 1000, Duration.ofSeconds(15))).isEmpty();
        assertThat(InterleavedBench.overlap(0, 0, Duration.ofSeconds(15))).isEmpty();
        assertThat(InterleavedBench.overlap(600, 1000, Duration.ofSeconds(15))).contains("**The turns overlapped:** the "
                + "idle side served 60.0 % of the loaded side's pages in the measured parts; scenarios under way at a "
                + "switch ran past the 15 s settling time");
    }

    @Test
    void theSummaryEndsWithWhyScenariosFailedOnEachSide() {
        assertThat(InterleavedBench.failures(List.of("none", "2211"), List.of(List.of(), List.of()))).isEmpty();
        assertThat(InterleavedBench.failures(List.of("none", "2211"),
                List.of(List.of("SESSION_LOST ×1: cart holds # but the user added #"), List.of())))
                .contains("Why scenarios failed (the whole run, warm-up turns included; digits shown as #):")
                .contains("- none: SESSION_LOST ×1: cart holds # but the user added #")
                .contains("- 2211: none");
    }

    /** Recorded turns of 20 s at {@code pagesPerSecond[k]}, the nodes needing {@code cpuMillisPerPage[k]} per page. */
    private static List<Window> turnsWithCpu(double[] pagesPerSecond, double[] cpuMillisPerPage) {
        List<Window> turns = new ArrayList<>();
        for (int k = 0; k < pagesPerSecond.length; k++) {
            long pages = Math.round(pagesPerSecond[k] * 20);
            double cpu = pages * cpuMillisPerPage[k] / 1000;
            turns.add(new Window(k, k % 2 == 0 ? "none" : "2211", true, 20, pages, 0, 0, 0, cpu, 0.1, 5, 1.0, pages * 10,
                    Map.of(NodeThreads.REQUESTS, cpu), SentTraffic.NOT_MEASURED));
        }
        return turns;
    }

    @Test
    void aSideWhoseNodesStillGetCheaperPerPageIsReportedAsNotInSteadyStateWithTheRatioOfEachHalf() {
        // A steady at 0.6 ms per page; B falls from 1.0 to 0.8 ms per page as its JIT catches up, and its ratio rises
        List<Window> turns = turnsWithCpu(new double[] {1000, 700, 1000, 720, 1000, 850, 1000, 870, 1000},
                new double[] {0.6, 1.0, 0.6, 1.0, 0.6, 0.8, 0.6, 0.8, 0.6});
        Settling settling = Settling.of(turns, InterleavedBench.pairs(turns));

        assertThat(settling.cpuFall(0)).isCloseTo(0.0, within(1e-9));
        assertThat(settling.cpuFall(1)).isCloseTo(0.2, within(1e-9));
        assertThat(settling.stillWarming()).isTrue();
        assertThat(settling.ratioFirstHalf()).isCloseTo(0.71, within(1e-9));
        assertThat(settling.ratioSecondHalf()).isCloseTo(0.86, within(1e-9));
        assertThat(settling.paragraph("none", "2211")).contains("**Not in steady state:**",
                "none 0.600 → 0.600 ms (+0.0 %), 2211 1.000 → 0.800 ms (-20.0 %)", "2211 / none by half of the pairs: "
                        + "71.0 % → 86.0 %.", "Run more `--warmup-pairs`.");
    }

    @Test
    void sidesWhoseCpuPerPageHoldsStillAreReportedAsSteady() {
        List<Window> turns = turnsWithCpu(new double[] {1000, 900, 1000, 910, 1000, 905, 1000, 900, 1000},
                new double[] {0.6, 0.70, 0.61, 0.71, 0.60, 0.69, 0.59, 0.70, 0.6});
        Settling settling = Settling.of(turns, InterleavedBench.pairs(turns));

        assertThat(settling.stillWarming()).isFalse();
        assertThat(settling.paragraph("none", "2211")).startsWith(System.lineSeparator() + "Steady state:")
                .doesNotContain("Not in steady state");
        assertThat(InterleavedBench.summary(new Settings(Path.of("home"), Path.of("shop.war"), DataSetSize.QUICK,
                List.of("none", "2211"), NO_OPTIONS, 2, 400, Duration.ofSeconds(30), Duration.ofSeconds(10), 1, 4, 1,
                Duration.ofMinutes(1)), turns, Instant.EPOCH, Instant.EPOCH.plusSeconds(300), "0.5", "x"))
                .contains("Steady state: Node CPU per page");
    }

    @Test
    void theCsvHasTheNodeCpuPerPageOfEveryKindOfThread() {
        String csv = InterleavedBench.csv(turns(50, 10, 100));
        String[] lines = csv.split("\n");
        assertThat(lines[0]).endsWith(",node_cpu_ms_per_page_requests,node_cpu_ms_per_page_replication,"
                + "node_cpu_ms_per_page_gc,node_cpu_ms_per_page_jit,node_cpu_ms_per_page_other,node_cpu_ms_per_page_ended,"
                + "replication_changes_sent,replication_messages_sent,replication_kb_sent_per_page,"
                + "replication_changes_per_message");
        // turn 2 (2211, 10 pages/s for 20 s): 160 changes in 80 messages, 500,000 bytes
        assertThat(lines[2]).endsWith(",0.4000,0.1000,0.0000,0.0000,0.0000,0.0000,160,80,2.500,2.00");
        assertThat(lines[3]).endsWith(",0.4000,0.0000,0.0000,0.1000,0.0000,0.0000,NaN,NaN,NaN,NaN");
    }

    @Test
    void settingsRefuseAnythingButTwoPatternsASettlingTimeShorterThanATurnAndNodeOptionsThatAreNoJvmOptions() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Settings(Path.of("h"), Path.of("w"),
                DataSetSize.QUICK, List.of("none"), NO_OPTIONS, 2, 10, Duration.ofSeconds(30), Duration.ofSeconds(5), 0, 1, 1,
                Duration.ofMinutes(1))).hasMessageContaining("exactly two patterns");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Settings(Path.of("h"), Path.of("w"),
                DataSetSize.QUICK, List.of("none", "2211"), NO_OPTIONS, 2, 10, Duration.ofSeconds(30), Duration.ofSeconds(30), 0,
                1, 1, Duration.ofMinutes(1))).hasMessageContaining("settle shorter");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new Settings(Path.of("h"), Path.of("w"),
                DataSetSize.QUICK, List.of("2211", "2211"), List.of(List.of(), List.of("cohort.transport=TCP")), 2, 10,
                Duration.ofSeconds(30), Duration.ofSeconds(5), 0, 1, 1, Duration.ofMinutes(1)))
                .hasMessageContaining("a node option is a -D or -X JVM option: cohort.transport=TCP");
    }

    @Test
    void nodeOptionsAreCommaSeparatedAndNoneWhenAbsent() {
        String[] args = {"/tmp/out", "--b-node-options", "-Dcohort.transport=TCP,-Dcohort.bundler_type=pd"};
        assertThat(InterleavedBench.nodeOptions(args, "--b-node-options"))
                .containsExactly("-Dcohort.transport=TCP", "-Dcohort.bundler_type=pd");
        assertThat(InterleavedBench.nodeOptions(args, "--a-node-options")).isEmpty();
    }
}
