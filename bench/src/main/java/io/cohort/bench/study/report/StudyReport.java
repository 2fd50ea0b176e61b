package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.RunFolder;
import io.cohort.bench.study.model.RunManifest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Writes the report of one {@code cohort bench} run from its raw data: {@code summary.md},
 * {@code index.html} and {@code charts/*.svg} + {@code charts/*.png} in the run folder. It reads only
 * the run folder (never a cluster), so a report can be regenerated at any time, also while a run is
 * still writing experiments:
 * <pre>
 *   java -cp &lt;bench classpath&gt; io.cohort.bench.study.report.StudyReport &lt;run folder&gt;
 * </pre>
 * Rewriting replaces the report files and every SVG/PNG in {@code charts/}; the raw data is untouched.
 */
public final class StudyReport {

    private StudyReport() {
    }

    /**
     * Writes the report into the run folder.
     *
     * @throws IllegalArgumentException when the folder has no {@code run.json}
     * @throws UncheckedIOException     when the raw data cannot be read or the report cannot be written
     */
    public static void write(Path runFolder) {
        if (!Files.isRegularFile(runFolder.resolve("run.json"))) {
            throw new IllegalArgumentException("not a cohort bench run folder (no run.json): " + runFolder);
        }
        RunFolder folder = new RunFolder(runFolder);
        RunManifest manifest = folder.readManifest();
        List<ExperimentResult> results = folder.readExperiments();
        RunData data = new RunData(manifest, results);
        List<Block> blocks = new ReportDocument(data, new StudyFindings(data).evaluate(), new Targets(data).evaluate())
                .blocks();
        writeCharts(runFolder.resolve("charts"), blocks);
        writeText(runFolder.resolve("summary.md"), new MarkdownRenderer().render(blocks));
        writeText(runFolder.resolve("index.html"), new HtmlRenderer().render(ReportDocument.TITLE, blocks));
    }

    private static void writeCharts(Path dir, List<Block> blocks) {
        deleteOldCharts(dir);
        ChartWriter writer = new ChartWriter(dir);
        Set<String> names = new HashSet<>();
        for (Block block : blocks) {
            if (block instanceof Block.Chart chart) {
                if (!names.add(chart.spec().name())) {
                    throw new IllegalStateException("two charts named " + chart.spec().name()
                            + " (two load labels with the same file-name form?)");
                }
                writer.write(chart.spec());
            }
        }
    }

    private static void deleteOldCharts(Path dir) {
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.toList()) {
                String name = file.getFileName().toString();
                if (name.endsWith(".svg") || name.endsWith(".png")) {
                    Files.delete(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear old charts in " + dir, e);
        }
    }

    private static void writeText(Path file, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    /** {@code StudyReport <run folder>}: exit 0 when written, 2 on bad arguments, 1 when it fails. */
    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: java -cp <bench classpath> " + StudyReport.class.getName() + " <run folder>");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        try {
            write(dir);
            System.out.println("wrote " + dir.resolve("summary.md") + ", " + dir.resolve("index.html") + " and "
                    + dir.resolve("charts"));
        } catch (IllegalArgumentException e) {
            System.err.println("error: " + e.getMessage());
            System.exit(2);
        } catch (RuntimeException e) {
            System.err.println("error: cannot write the report of " + dir + ": " + e);
            System.exit(1);
        }
    }
}
