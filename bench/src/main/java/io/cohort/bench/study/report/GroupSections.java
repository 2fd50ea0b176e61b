package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.Summary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The sections with charts: the study's comparison groups (ratio tables and charts per load, CPU and
 * interconnect over time), failover, and a comparison of every experiment by target that also covers
 * targets the report has no section for (peer baselines).
 */
final class GroupSections {

    private final RunData data;
    private final ReportCharts charts;

    GroupSections(RunData data) {
        this.data = data;
        this.charts = new ReportCharts(data);
    }

    void groups(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Comparison groups"));
        for (ComparisonGroup group : ComparisonGroup.values()) {
            blocks.add(new Block.Heading(3, group.title() + ": " + group.question()));
            blocks.add(new Block.Paragraph("Patterns: " + String.join(", ",
                    group.patterns().stream().map(ComparisonGroup::legend).toList()) + "."));
            boolean any = false;
            for (String load : data.loads()) {
                List<String> measured = charts.measuredPatterns(group, load);
                if (measured.size() >= 2) {
                    any = true;
                    group(blocks, group, load, measured);
                } else if (measured.size() == 1) {
                    blocks.add(new Block.Paragraph("At " + data.describeLoad(load) + " only " + measured.get(0)
                            + " of this group ran: nothing to compare (see the experiments table)."));
                }
            }
            if (!any) {
                blocks.add(new Block.Paragraph("Not compared in this run: fewer than two of these patterns ran at "
                        + "any one load."));
            }
        }
    }

    private void group(List<Block> blocks, ComparisonGroup group, String load, List<String> measured) {
        blocks.add(new Block.Heading(4, group.title() + " at " + data.describeLoad(load)));
        List<String> missing = group.patterns().stream().filter(p -> !measured.contains(p)).toList();
        Baseline baseline = Baseline.at(data, load);
        blocks.add(new Block.Paragraph("Ratios: " + baseline.description() + "."
                + (missing.isEmpty() ? "" : " Not measured at this load: " + String.join(", ", missing) + ".")));
        List<List<String>> rows = new ArrayList<>();
        for (String pattern : measured) {
            for (int nodes : data.nodeCounts(pattern, load)) {
                ExperimentResult result = data.find(pattern, nodes, load).orElseThrow();
                Optional<RatioPoint> ratio = RatioPoint.of(data, result);
                Summary m = result.summary();
                rows.add(List.of(pattern, String.valueOf(nodes), Format.number(m.pagesPerSecond(), 1),
                        ratio.map(r -> Format.ratio(r.throughput())).orElse("no baseline"),
                        Format.number(m.meanMs(), 1),
                        ratio.map(r -> Format.ratio(r.responseTime())).orElse("no baseline"),
                        Format.number(m.cpuPercentPerNode(), 1), Format.number(m.interconnectKBpsPerNode(), 1)));
            }
        }
        blocks.add(new Block.Table(List.of("pattern", "nodes", "pages/s", "throughput ratio", "mean ms",
                "response-time ratio", "CPU %", "interconnect KB/s"), rows));
        charts.ratioCharts(group, load).forEach(spec -> blocks.add(new Block.Chart(spec)));
        List<ChartSpec> overTime = charts.timeCharts(group, load);
        if (!overTime.isEmpty()) {
            blocks.add(new Block.Paragraph("Over time at " + charts.largestSize(group, load).orElseThrow()
                    + " nodes, the largest size measured in this group at this load; each line is the mean over the "
                    + "nodes of one experiment, per second."));
            overTime.forEach(spec -> blocks.add(new Block.Chart(spec)));
        }
    }

    void failover(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Failover"));
        List<ExperimentResult> failovers = data.failovers();
        if (failovers.isEmpty()) {
            blocks.add(new Block.Paragraph("Not measured: the run has no failover experiment."));
            return;
        }
        blocks.add(new Block.Paragraph("One node killed with SIGKILL in the middle of the measurement window. Sessions "
                + "lost: scenarios in flight at the kill or started after it whose session was lost or stale. "
                + "Recovery: seconds until throughput (pages served without error) was back to ≥ 90 % of its "
                + "pre-kill mean (scaled to the surviving nodes) for 3 consecutive seconds."));
        List<List<String>> rows = new ArrayList<>();
        for (ExperimentResult result : failovers) {
            ExperimentSpec s = result.spec();
            FailoverOutcome outcome = result.failover();
            if (outcome == null) {
                rows.add(List.of(s.id(), s.target(), s.pattern(), String.valueOf(s.nodes()), data.describeLoad(s.load()),
                        "no outcome recorded", "", "", "", ""));
                continue;
            }
            rows.add(List.of(s.id(), s.target(), s.pattern(), String.valueOf(s.nodes()), data.describeLoad(s.load()),
                    outcome.killedNode(), Format.number(outcome.killedAtSecond(), 1),
                    String.valueOf(outcome.sessionsLost()), String.valueOf(outcome.errorsAfterKill()),
                    outcome.recoverySeconds() == null ? "not within the window"
                            : Format.number(outcome.recoverySeconds(), 1)));
        }
        blocks.add(new Block.Table(List.of("id", "target", "pattern", "nodes", "load", "killed node", "killed at s",
                "sessions lost", "errors after kill", "recovery s"), rows));
        for (ExperimentResult result : failovers) {
            charts.failoverChart(result).ifPresent(spec -> blocks.add(new Block.Chart(spec)));
        }
    }

    /** Every experiment, by target, pattern, size and load, with ratios to Cohort's baseline at its load. */
    void byTarget(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "All experiments by target"));
        blocks.add(new Block.Paragraph("Every system measured, side by side. Ratios divide by Cohort's none baseline "
                + "at the same load (1-node none, else none at the same size, marked FALLBACK)."));
        List<ExperimentResult> sorted = data.all().stream()
                .sorted(Comparator.comparing((ExperimentResult r) -> data.usersPerNode(r.spec().load()))
                        .thenComparing(r -> r.spec().nodes())
                        .thenComparing(r -> r.spec().target())
                        .thenComparing(r -> r.spec().pattern())
                        .thenComparing(r -> r.spec().failover()))
                .toList();
        List<List<String>> rows = new ArrayList<>();
        for (ExperimentResult result : sorted) {
            ExperimentSpec s = result.spec();
            Optional<RatioPoint> ratio = RatioPoint.of(data, result);
            String mark = ratio.map(r -> r.baseline() == Baseline.SAME_SIZE_NONE ? " (FALLBACK)" : "").orElse("");
            rows.add(List.of(s.target(), s.pattern(), String.valueOf(s.nodes()), data.describeLoad(s.load()),
                    s.failover() ? "yes" : "no", Format.number(result.summary().pagesPerSecond(), 1),
                    ratio.map(r -> Format.ratio(r.throughput()) + mark).orElse("no baseline"),
                    Format.number(result.summary().meanMs(), 1),
                    ratio.map(r -> Format.ratio(r.responseTime()) + mark).orElse("no baseline"),
                    String.valueOf(result.summary().errors())));
        }
        blocks.add(new Block.Table(List.of("target", "pattern", "nodes", "load", "node killed", "pages/s",
                "throughput ratio", "mean ms", "response-time ratio", "errors"), rows));
    }
}
