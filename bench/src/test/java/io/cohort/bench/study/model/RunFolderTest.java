package io.cohort.bench.study.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.bench.MachineInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFolderTest {

    @TempDir
    Path dir;

    @Test
    void experimentsRoundTripInTheManifestsOrderWithCsvBesideThem() throws Exception {
        ExperimentSpec first = spec("cohort-none-n1-medium", "none", 1, false);
        ExperimentSpec second = spec("cohort-2212-n2-medium", "2212", 2, true);
        RunFolder folder = new RunFolder(dir);
        folder.writeManifest(new RunManifest("cohort bench --quick", Instant.parse("2026-11-21T10:00:00Z"), null,
                new MachineInfo("jdk", "os", "cpu", 2, "0 0 0"), "quick", List.of(first, second)));
        ExperimentResult failover = result(second, new FailoverOutcome("n1", 10.0, 0, 3, 2.5));
        folder.writeExperiment(failover);
        ExperimentResult baseline = result(first, null);
        folder.writeExperiment(baseline);

        assertThat(folder.readExperiments()).containsExactly(baseline, failover);
        assertThat(folder.readManifest().experiments()).containsExactly(first, second);
        assertThat(Files.readAllLines(dir.resolve("summary.csv")))
                .hasSize(3)
                .first().isEqualTo(RunFolder.SUMMARY_CSV_HEADER);
        assertThat(Files.readAllLines(dir.resolve("summary.csv")).get(1))
                .startsWith("cohort-none-n1-medium,cohort,none,1,50,medium,1,1000,100.000,");
        assertThat(Files.readAllLines(dir.resolve("timeline").resolve("cohort-2212-n2-medium.csv")))
                .containsExactly("second,pages,errors,mean_ms,good_pages", "-1.000,90,0,11.000,90", "0.000,100,3,12.000,98");
        assertThat(Files.readAllLines(dir.resolve("nodes").resolve("cohort-2212-n2-medium.csv")))
                .containsExactly("node,second,cpu_pct,interconnect_kBps", "n1,-1.000,55.500,12.250");
    }

    @Test
    void anExperimentWrittenBeforeRoundsExistedReadsAsRoundOne() throws Exception {
        RunFolder folder = new RunFolder(dir);
        ExperimentSpec repeated = new ExperimentSpec("cohort-2211-n2-medium-r3", "cohort", "2211", 2, 50, "medium",
                Duration.ofSeconds(5), Duration.ofSeconds(10), false, 3);
        folder.writeExperiment(result(repeated, null));
        folder.writeExperiment(result(spec("cohort-none-n2-medium", "none", 2, false), null));
        Path old = dir.resolve("experiments").resolve("cohort-none-n2-medium.json");
        String json = Files.readString(old);
        assertThat(json).contains("\"round\" : 1");
        Files.writeString(old, json.replace("\"round\" : 1,", "").replace(",\n    \"round\" : 1", ""));
        assertThat(Files.readString(old)).doesNotContain("round");

        assertThat(folder.readExperiments()).extracting(r -> r.spec().id() + " " + r.spec().round())
                .containsExactly("cohort-2211-n2-medium-r3 3", "cohort-none-n2-medium 1");
    }

    @Test
    void anIdThatIsNoFileNameIsRefused() {
        assertThatThrownBy(() -> spec("../escape", "none", 1, false))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("../escape");
    }

    private static ExperimentSpec spec(String id, String pattern, int nodes, boolean failover) {
        return new ExperimentSpec(id, "cohort", pattern, nodes, 50, "medium", Duration.ofSeconds(5),
                Duration.ofSeconds(10), failover);
    }

    private static ExperimentResult result(ExperimentSpec spec, FailoverOutcome failover) {
        return new ExperimentResult(spec,
                new Summary(1000, 100.0, 12.5, 10.0, 20.0, 40.0, 80.0, 1, 40, 0, 55.5, 12.25),
                List.of(new ThroughputPoint(-1, 90, 0, 11.0, 0), new ThroughputPoint(0, 100, 3, 12.0, 2)),
                List.of(new NodeSample("n1", -1, 55.5, 12.25)), failover, List.of());
    }
}
