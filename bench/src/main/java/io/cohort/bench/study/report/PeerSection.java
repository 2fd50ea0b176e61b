package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.Summary;
import io.cohort.bench.study.model.SystemNames;
import io.cohort.bench.study.report.PeerComparison.Overhead;
import io.cohort.bench.study.report.PeerComparison.System;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The report's "Peer comparison" section ({@link PeerComparison}'s figures as blocks): the goals' verdicts, the
 * comparison tables (replication: Cohort vs Tomcat; balancer: Cohort's vs HAProxy; database sessions: Cohort 3211
 * vs Jetty JDBC), the overhead table, the failover table, and two bar charts (throughput and CPU per page of every
 * system; the overheads side by side). Written only when the run has peer experiments.
 */
final class PeerSection {

    private static final List<String> HEADER = List.of("system", "pages/s", "mean ms", "p99 ms", "CPU ms/page",
            "interconnect bytes/page", "errors", "sessions lost", "sessions lost on SIGKILL");

    private final RunData data;
    private final PeerComparison comparison;

    PeerSection(RunData data) {
        this.data = data;
        this.comparison = new PeerComparison(data);
    }

    void blocks(List<Block> blocks) {
        if (!PeerComparison.present(data)) {
            return;
        }
        blocks.add(new Block.Heading(2, "Peer comparison"));
        blocks.add(new Block.Paragraph("Cohort and the systems users know, measured side by side in this run: "
                + comparison.nodes() + " nodes each, " + data.describeLoad(comparison.load()) + ", the same WAR, "
                + "database, load driver and scenario, every system behind one front door (Cohort's balancer, except "
                + "the HAProxy row). CPU per page = total node CPU-seconds / pages (node processes only; the bench "
                + "JVM, its balancer, HAProxy and the database are not counted). Interconnect bytes per page = bytes "
                + "sent + received summed over the nodes / pages (each byte counted by sender and receiver): Cohort's "
                + "cohort_replication_bytes_total (for 3211 the session rows written), Tomcat's cluster channel "
                + "(Tribes data packages, pings included, TCP headers not); Jetty's JDBC store has no byte counter, so "
                + "its database traffic is not measured."));
        goals(blocks);
        table(blocks, "Replication: Cohort vs Tomcat", PeerComparison.REPLICATION);
        overheadTable(blocks);
        table(blocks, "Balancer: Cohort's vs HAProxy (the same Cohort 2211 nodes)", PeerComparison.BALANCER);
        table(blocks, "Sessions in the database: Cohort 3211 vs Jetty JDBC (the same database)",
                PeerComparison.DATABASE);
        failoverTable(blocks);
        charts(blocks);
    }

    private void goals(List<Block> blocks) {
        blocks.add(new Block.Heading(3, "Goals"));
        List<List<String>> rows = comparison.goals().stream()
                .map(t -> List.of(t.target(), t.goal(), t.measured(), t.status().label())).toList();
        blocks.add(new Block.Table(List.of("goal", "rule", "measured", "verdict"), rows));
    }

    private void table(List<Block> blocks, String title, List<System> systems) {
        blocks.add(new Block.Heading(3, title));
        List<List<String>> rows = new ArrayList<>();
        for (System system : systems) {
            rows.add(row(system));
        }
        blocks.add(new Block.Table(HEADER, rows));
    }

    private List<String> row(System system) {
        Optional<ExperimentResult> steady = comparison.steady(system);
        String lostOnKill = comparison.failover(system).map(r -> String.valueOf(r.failover().sessionsLost()))
                .orElse("—");
        if (steady.isEmpty()) {
            return List.of(system.label(), "not measured", "", "", "", "", "", "", lostOnKill);
        }
        Summary s = steady.get().summary();
        OptionalDouble bytes = PeerComparison.bytesPerPage(steady.get());
        return List.of(system.label(), Format.number(s.pagesPerSecond(), 1), Format.number(s.meanMs(), 0),
                Format.number(s.p99Ms(), 0), Format.number(PeerComparison.cpuMsPerPage(steady.get()), 2),
                bytes.isPresent() ? Format.number(bytes.getAsDouble(), 0) : "not measured",
                String.valueOf(s.errors()), String.valueOf(s.sessionsLost()), lostOnKill);
    }

    private void overheadTable(List<Block> blocks) {
        blocks.add(new Block.Heading(3, "Replication overhead against each system's own no-replication baseline"));
        List<List<String>> rows = new ArrayList<>();
        for (Overhead o : comparison.overheads()) {
            rows.add(o.measured()
                    ? List.of(o.system().label(), o.baseline().label(), Format.percent(o.throughputOverhead()),
                            Format.percent(o.cpuPerPageOverhead()))
                    : List.of(o.system().label(), o.baseline().label(), "not measured", "not measured"));
        }
        blocks.add(new Block.Table(List.of("system", "baseline", "throughput overhead (1 − pages/s ÷ baseline)",
                "CPU-per-page overhead (÷ baseline − 1)"), rows));
    }

    private void failoverTable(List<Block> blocks) {
        blocks.add(new Block.Heading(3, "SIGKILL of node n1 in the middle of the window"));
        List<List<String>> rows = new ArrayList<>();
        for (System system : PeerComparison.FAILOVER) {
            Optional<ExperimentResult> run = comparison.failover(system);
            if (run.isEmpty()) {
                rows.add(List.of(system.label(), "not measured", "", "", ""));
                continue;
            }
            FailoverOutcome f = run.get().failover();
            rows.add(List.of(system.label(), String.valueOf(f.sessionsLost()), String.valueOf(f.errorsAfterKill()),
                    f.recoverySeconds() == null ? "not within the window" : Format.number(f.recoverySeconds(), 1),
                    Format.number(run.get().summary().pagesPerSecond(), 1)));
        }
        blocks.add(new Block.Table(List.of("system", "sessions lost", "errors after the kill", "recovery s",
                "pages/s over the window"), rows));
    }

    private void charts(List<Block> blocks) {
        List<System> systems = new ArrayList<>();
        List<Double> pages = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (System system : List.of(PeerComparison.COHORT_NONE, PeerComparison.COHORT_2211,
                PeerComparison.COHORT_2212, PeerComparison.TOMCAT_STANDARD, PeerComparison.DELTA,
                PeerComparison.BACKUP, PeerComparison.COHORT_BEHIND_HAPROXY, PeerComparison.COHORT_3211,
                PeerComparison.JETTY)) {
            Optional<ExperimentResult> run = comparison.steady(system);
            if (run.isPresent()) {
                systems.add(system);
                pages.add(run.get().summary().pagesPerSecond());
                double perPage = PeerComparison.cpuMsPerPage(run.get());
                cpu.add(Double.isNaN(perPage) ? 0 : perPage);
            }
        }
        if (!systems.isEmpty()) {
            List<String> names = systems.stream().map(PeerSection::shortName).toList();
            blocks.add(new Block.Chart(ChartSpec.bars("peers-throughput", "Peer comparison: throughput, "
                    + comparison.nodes() + " nodes, " + comparison.load(), "pages/s", names,
                    List.of(new ChartSpec.Line("pages/s", xs(names.size()), pages, ChartSpec.Style.DATA)))));
            blocks.add(new Block.Chart(ChartSpec.bars("peers-cpu-per-page", "Peer comparison: node CPU per page",
                    "CPU ms per page", names,
                    List.of(new ChartSpec.Line("CPU ms/page", xs(names.size()), cpu, ChartSpec.Style.DATA)))));
        }
        List<Overhead> overheads = comparison.overheads().stream().filter(Overhead::measured).toList();
        if (!overheads.isEmpty()) {
            List<String> names = overheads.stream().map(o -> shortName(o.system())).toList();
            blocks.add(new Block.Chart(ChartSpec.bars("peers-overhead", "Replication overhead vs own baseline",
                    "overhead %", names, List.of(
                            new ChartSpec.Line("throughput overhead %", xs(names.size()),
                                    overheads.stream().map(o -> o.throughputOverhead() * 100).toList(),
                                    ChartSpec.Style.DATA),
                            new ChartSpec.Line("CPU-per-page overhead %", xs(names.size()),
                                    overheads.stream().map(o -> o.cpuPerPageOverhead() * 100).toList(),
                                    ChartSpec.Style.DATA)))));
        }
    }

    private static List<Double> xs(int count) {
        List<Double> x = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            x.add((double) k);
        }
        return x;
    }

    /** A short axis label: {@code cohort 2211}, {@code tomcat-delta}, {@code cohort-haproxy 2211}. */
    static String shortName(System system) {
        return system.target().startsWith(SystemNames.COHORT) ? system.target() + " " + system.pattern() : system.target();
    }
}
