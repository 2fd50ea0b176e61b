package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cohort.bench.study.model.NodeSample;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportChartsTest {

    @Test
    void ratioChartsHaveALinePerMeasuredPatternAndTheLinearScalingReference() {
        RunData data = new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0)
                .add("none", 2, "medium", 198, 10, 40, 0).add("2211", 2, "medium", 190, 12, 46, 2000).data();

        List<ChartSpec> charts = new ReportCharts(data).ratioCharts(ComparisonGroup.PROTOCOL, "medium");

        assertThat(charts).extracting(ChartSpec::name)
                .containsExactly("protocol-medium-throughput-ratio", "protocol-medium-response-time-ratio");
        ChartSpec throughput = charts.get(0);
        assertThat(throughput.yAxis()).isEqualTo("throughput (ratio to 1-node none)");
        assertThat(throughput.lines()).extracting(ChartSpec.Line::name).containsExactly("none (no replication)",
                "2211 (peer, onRequestEnd, modified, async)", "linear scaling (ratio = nodes)");
        assertThat(throughput.lines().get(1).x()).containsExactly(2.0);
        assertThat(throughput.lines().get(1).y().get(0)).isCloseTo(1.90, within(1e-9));
        assertThat(charts.get(1).lines().get(1).y().get(0)).isCloseTo(1.20, within(1e-9));
    }

    @Test
    void fallbackRatiosSaySoOnTheAxis() {
        RunData data = new SyntheticRun().add("none", 2, "medium", 198, 10, 40, 0)
                .add("2211", 2, "medium", 190, 12, 46, 2000).data();

        ChartSpec throughput = new ReportCharts(data).ratioCharts(ComparisonGroup.PROTOCOL, "medium").get(0);

        assertThat(throughput.yAxis()).contains("FALLBACK: ratio to none at the same size");
        assertThat(throughput.lines()).extracting(ChartSpec.Line::name).doesNotContain("linear scaling (ratio = nodes)");
    }

    @Test
    void overTimeLinesAreTheMeanOverNodesPerSecond() {
        ChartSpec.Line line = ReportCharts.meanOverNodes("x", List.of(new NodeSample("n1", 0.2, 40, 100),
                new NodeSample("n2", 0.7, 60, 300), new NodeSample("n1", 1.1, 50, 0)), NodeSample::cpuPercent);

        assertThat(line.x()).containsExactly(0.0, 1.0);
        assertThat(line.y()).containsExactly(50.0, 50.0);
    }

    @Test
    void timeChartsUseTheGroupsLargestSize() {
        RunData data = SyntheticRun.studyShaped().data();

        List<ChartSpec> charts = new ReportCharts(data).timeCharts(ComparisonGroup.TRIGGER, "high");

        assertThat(charts).extracting(ChartSpec::title).allMatch(t -> t.contains("4 nodes, high (700 users per node)"));
        assertThat(charts.get(1).lines()).hasSize(3);
    }
}
