package io.cohort.bench.study.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

class StudyReportTest {

    @TempDir
    Path dir;

    @Test
    void writesSummaryPageAndWellFormedSvgCharts() throws Exception {
        new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0).add("none", 2, "medium", 198, 10, 40, 0)
                .add("2211", 2, "medium", 190, 11, 46, 2000).add("1211", 2, "medium", 188, 11, 46, 2050)
                .failover("2212", 2, "medium", 190, 0).write(dir);

        StudyReport.write(dir);

        assertThat(dir.resolve("summary.md")).isRegularFile();
        assertThat(dir.resolve("index.html")).isRegularFile();
        List<Path> svgs = files("svg");
        assertThat(svgs).extracting(p -> p.getFileName().toString())
                .containsExactly("failover-cohort-2212-n2-medium-failover.svg", "protocol-medium-cpu.svg",
                        "protocol-medium-interconnect.svg", "protocol-medium-response-time-ratio.svg",
                        "protocol-medium-throughput-ratio.svg");
        assertThat(files("png")).hasSameSizeAs(svgs);
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        for (Path svg : svgs) {
            Document document = factory.newDocumentBuilder().parse(svg.toFile());
            assertThat(document.getDocumentElement().getLocalName()).as(svg.toString()).isEqualTo("svg");
        }
        String html = Files.readString(dir.resolve("index.html"));
        for (Path svg : svgs) { // the page shows the PNG (always committed) and links the SVG
            String png = svg.getFileName().toString().replace(".svg", ".png");
            assertThat(html).contains("<img src=\"charts/" + png + "\"", "<a href=\"charts/" + svg.getFileName() + "\">SVG");
        }
        String md = Files.readString(dir.resolve("summary.md"));
        assertThat(md).contains("| F11 |", "cohort bench --preset quick", "test cpu",
                "only 2211 of this group ran: nothing to compare");
        assertThat(md).contains("](charts/protocol-medium-throughput-ratio.png) ([SVG](charts/protocol-medium-throughput-ratio.svg))");
    }

    @Test
    void aRunWithRoundsListsEveryRoundAndTheOtherSectionsUseTheFirst() throws Exception {
        new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0)
                .addRound("none", 2, "medium", 1, 200).addRound("2211", 2, "medium", 1, 190)
                .addRound("2111", 2, "medium", 1, 160).addRound("2111", 2, "medium", 2, 240)
                .addRound("2211", 2, "medium", 2, 300).addRound("none", 2, "medium", 2, 290)
                .addRound("none", 2, "medium", 3, 250).addRound("2211", 2, "medium", 3, 240)
                .addRound("2111", 2, "medium", 3, 200).write(dir);

        StudyReport.write(dir);

        String md = Files.readString(dir.resolve("summary.md"));
        assertThat(md).contains("## Rounds",
                "| medium (350 users per node) | 2 | 3 | 200.0, 290.0, 250.0 | 200.0 to 290.0 (max / min 1.45) |",
                "| 2211 | medium (350 users per node) | 2 | 3 | 95.0 %, 103.4 %, 96.0 % | 96.0 % (−4.0 %) | "
                        + "95.0 % to 103.4 % |",
                "median of 3 paired rounds: 96.0 %",
                "| cohort-2211-n2-medium-r2 |");
        // the patterns in the first round's order, although round 2 ran 2111 first
        assertThat(md.indexOf("| 2211 | medium")).isPositive().isLessThan(md.indexOf("| 2111 | medium"));
        assertThat(Files.readString(dir.resolve("summary.csv"))).contains("cohort-2211-n2-medium-r2,cohort,2211,2,"
                + SyntheticRun.MEDIUM_USERS + ",medium,2,");
        assertThat(Files.readString(dir.resolve("index.html"))).contains("<h2>Rounds</h2>");
    }

    @Test
    void aRunWithoutRoundsHasNoRoundsSection() throws Exception {
        new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0).add("none", 2, "medium", 198, 10, 40, 0)
                .add("2211", 2, "medium", 190, 11, 46, 2000).write(dir);

        StudyReport.write(dir);

        assertThat(Files.readString(dir.resolve("summary.md"))).doesNotContain("## Rounds");
    }

    @Test
    void textFromTheDataIsEscapedInHtmlAndCannotBreakMarkdownTables() throws Exception {
        SyntheticRun run = new SyntheticRun();
        run.add("none", 1, "medium", 100, 10, 40, 0);
        run.add("tomcat-delta", "delta", 1, "medium", 90, 12, 50, 10,
                List.of("node <script>alert('x')</script> | restarted & \"slow\""));
        run.write(dir);

        StudyReport.write(dir);

        String html = Files.readString(dir.resolve("index.html"));
        assertThat(html).doesNotContain("<script>").contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;")
                .contains("&amp; &quot;slow&quot;");
        String md = Files.readString(dir.resolve("summary.md"));
        assertThat(md).doesNotContain("<script>").contains("&lt;script&gt;").contains("\\| restarted");
        assertThat(md).contains("| tomcat-delta | delta | 1 | medium (350 users per node) | no | 90.0 | 0.90 |");
    }

    @Test
    void rewritingReplacesChartsOfExperimentsThatAreGone() throws Exception {
        new SyntheticRun().add("none", 1, "medium", 100, 10, 40, 0).failover("2212", 2, "medium", 190, 0)
                .failover("2211", 2, "medium", 190, 3).write(dir);
        StudyReport.write(dir);
        Path old = dir.resolve("charts").resolve("failover-cohort-2211-n2-medium-failover.svg");
        assertThat(old).exists();
        Files.delete(dir.resolve("experiments").resolve("cohort-2211-n2-medium-failover.json"));

        StudyReport.write(dir);

        assertThat(old).doesNotExist();
        assertThat(dir.resolve("charts").resolve("failover-cohort-2212-n2-medium-failover.svg")).exists();
    }

    @Test
    void aFolderWithoutManifestIsRefused() {
        assertThatThrownBy(() -> StudyReport.write(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no run.json");
    }

    private List<Path> files(String extension) throws Exception {
        try (Stream<Path> files = Files.list(dir.resolve("charts"))) {
            return files.filter(f -> f.toString().endsWith("." + extension)).sorted().toList();
        }
    }
}
