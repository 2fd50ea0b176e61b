package io.cohort.bench.study.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Reads and writes one run folder (layout in {@link io.cohort.bench.study.model the package doc}).
 * JSON is the source of truth; the CSV files are written beside it for spreadsheets and plotting tools.
 */
public final class RunFolder {

    private static final ObjectMapper JSON = JsonMapper.builder()
            .addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    static final String SUMMARY_CSV_HEADER = "id,target,pattern,nodes,users_per_node,load,round,pages,pages_per_s,"
            + "mean_ms,p50_ms,p90_ms,p99_ms,max_ms,errors,scenarios,sessions_lost,cpu_pct_per_node,"
            + "interconnect_kBps_per_node";

    private final Path dir;

    public RunFolder(Path dir) {
        this.dir = dir;
    }

    public Path dir() {
        return dir;
    }

    public void writeManifest(RunManifest manifest) {
        write(dir.resolve("run.json"), manifest);
    }

    public RunManifest readManifest() {
        return read(dir.resolve("run.json"), RunManifest.class);
    }

    /** Writes the experiment's JSON and CSV files and rewrites {@code summary.csv} with every experiment so far. */
    public void writeExperiment(ExperimentResult result) {
        String id = result.spec().id();
        write(dir.resolve("experiments").resolve(id + ".json"), result);
        List<String> timeline = new ArrayList<>(List.of("second,pages,errors,mean_ms,good_pages"));
        result.timeline().forEach(p -> timeline.add(csv(p.second(), p.pages(), p.errors(), p.meanMs(), p.goodPages())));
        writeLines(dir.resolve("timeline").resolve(id + ".csv"), timeline);
        List<String> nodes = new ArrayList<>(List.of("node,second,cpu_pct,interconnect_kBps"));
        result.nodes().forEach(s -> nodes.add(csv(s.node(), s.second(), s.cpuPercent(), s.interconnectKBps())));
        writeLines(dir.resolve("nodes").resolve(id + ".csv"), nodes);
        List<String> summary = new ArrayList<>(List.of(SUMMARY_CSV_HEADER));
        readExperiments().forEach(r -> summary.add(summaryRow(r)));
        writeLines(dir.resolve("summary.csv"), summary);
    }

    /** Every experiment written so far, in the manifest's order where the manifest names them, else by id. */
    public List<ExperimentResult> readExperiments() {
        Path experiments = dir.resolve("experiments");
        if (!Files.isDirectory(experiments)) {
            return List.of();
        }
        List<ExperimentResult> results;
        try (Stream<Path> files = Files.list(experiments)) {
            results = files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted()
                    .map(f -> read(f, ExperimentResult.class)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!Files.exists(dir.resolve("run.json"))) {
            return results;
        }
        List<String> order = readManifest().experiments().stream().map(ExperimentSpec::id).toList();
        return results.stream().sorted((a, b) -> Integer.compare(rank(order, a), rank(order, b))).toList();
    }

    private static int rank(List<String> order, ExperimentResult result) {
        int index = order.indexOf(result.spec().id());
        return index < 0 ? Integer.MAX_VALUE : index;
    }

    private static String summaryRow(ExperimentResult r) {
        ExperimentSpec s = r.spec();
        Summary m = r.summary();
        return csv(s.id(), s.target(), s.pattern(), s.nodes(), s.usersPerNode(), s.load(), s.round(), m.pages(),
                m.pagesPerSecond(), m.meanMs(), m.p50Ms(), m.p90Ms(), m.p99Ms(), m.maxMs(), m.errors(), m.scenarios(),
                m.sessionsLost(), m.cpuPercentPerNode(), m.interconnectKBpsPerNode());
    }

    private static String csv(Object... values) {
        StringBuilder line = new StringBuilder();
        for (Object value : values) {
            if (!line.isEmpty()) {
                line.append(',');
            }
            line.append(value instanceof Double d ? String.format(Locale.ROOT, "%.3f", d) : String.valueOf(value));
        }
        return line.toString();
    }

    private static void write(Path file, Object value) {
        try {
            Files.createDirectories(file.getParent());
            JSON.writeValue(file.toFile(), value);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void writeLines(Path file, List<String> lines) {
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static <T> T read(Path file, Class<T> type) {
        try {
            return JSON.readValue(file.toFile(), type);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
