package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.bench.sut.ProcessCpu;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    private static final String METRICS = """
            # HELP cohort_replication_bytes_total
            # TYPE cohort_replication_bytes_total counter
            cohort_replication_bytes_total{app="jpetstore",direction="received"} 1500.0
            cohort_replication_bytes_total{app="jpetstore",direction="sent"} 2500.0
            cohort_replication_bytes_total_extra{app="x"} 99.0
            process_cpu_usage 0.25
            system_cpu_count 2.0
            """;

    @Test
    void sumsEverySeriesOfOneMetricAndNothingElse() {
        assertThat(PrometheusText.sum(METRICS, PrometheusText.REPLICATION_BYTES)).hasValue(4000.0);
        assertThat(PrometheusText.sum(METRICS, PrometheusText.PROCESS_CPU)).hasValue(0.25);
        assertThat(PrometheusText.sum(METRICS, PrometheusText.CPU_COUNT)).hasValue(2.0);
        assertThat(PrometheusText.sum(METRICS, "jvm_threads_live_threads")).isEmpty();
    }

    @Test
    void sumsOnlyTheSeriesWithTheGivenLabel() {
        assertThat(PrometheusText.sum(METRICS, PrometheusText.REPLICATION_BYTES, PrometheusText.SENT)).hasValue(2500.0);
        assertThat(PrometheusText.sum(METRICS, PrometheusText.REPLICATION_BYTES, "direction=\"received\""))
                .hasValue(1500.0);
        assertThat(PrometheusText.sum(METRICS, PrometheusText.PROCESS_CPU, PrometheusText.SENT)).isEmpty();
        assertThat(PrometheusText.sum(METRICS, PrometheusText.REPLICATION_CHANGES, PrometheusText.SENT)).isEmpty();
    }

    @Test
    void aLabelMatchesOnlyAWholePair() {
        String text = """
                cohort_replication_changes_total{app="jpetstore",redirection="sent"} 5.0
                cohort_replication_changes_total{app="jpetstore",direction="sent2"} 7.0
                cohort_replication_changes_total{direction="sent",app="jpetstore"} 11.0
                cohort_replication_changes_total 13.0
                """;

        assertThat(PrometheusText.sum(text, PrometheusText.REPLICATION_CHANGES, PrometheusText.SENT)).hasValue(11.0);
        assertThat(PrometheusText.sum(text, PrometheusText.REPLICATION_CHANGES)).hasValue(36.0);
    }

    @Test
    void interconnectBytesAreCohortsOrTomcatsCounterWhicheverTheNodeHas() {
        String tomcat = """
                # TYPE tomcat_tribes_bytes_total counter
                tomcat_tribes_bytes_total{direction="sent"} 700
                tomcat_tribes_bytes_total{direction="received"} 300
                """;

        assertThat(PrometheusText.sumAny(METRICS, PrometheusText.INTERCONNECT_BYTES)).hasValue(4000.0);
        assertThat(PrometheusText.sumAny(tomcat, PrometheusText.INTERCONNECT_BYTES)).hasValue(1000.0);
        assertThat(PrometheusText.sumAny("process_cpu_usage 0.25\n", PrometheusText.INTERCONNECT_BYTES)).isEmpty();
    }

    @Test
    void readsThisProcesssCpuTimeFromProc() {
        assertThat(ProcessCpu.seconds(ProcessHandle.current().pid())).isPresent();
        assertThat(ProcessCpu.seconds(ProcessHandle.current().pid()).getAsDouble()).isPositive();
        assertThat(ProcessCpu.seconds(Long.MAX_VALUE)).isEmpty();
    }
}
