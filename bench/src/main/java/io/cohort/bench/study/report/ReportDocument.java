package io.cohort.bench.study.report;

import io.cohort.bench.MachineInfo;
import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.RunManifest;
import io.cohort.bench.study.model.Summary;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The report's content as blocks, in reading order: the run, how to read it, the findings F1–F13, the
 * targets, the rounds (when experiments were repeated), the peer comparison (when the run has peer experiments), every experiment, the comparison groups
 * with their charts, failover, the comparison by target and links to the raw data.
 */
final class ReportDocument {

    static final String TITLE = "cohort bench — study rerun report";

    private final RunData data;
    private final List<Finding> findings;
    private final List<TargetResult> targets;

    ReportDocument(RunData data, List<Finding> findings, List<TargetResult> targets) {
        this.data = data;
        this.findings = List.copyOf(findings);
        this.targets = List.copyOf(targets);
    }

    List<Block> blocks() {
        List<Block> blocks = new ArrayList<>();
        run(blocks);
        reading(blocks);
        findings(blocks);
        targets(blocks);
        new RoundsSection(data).blocks(blocks);
        new PeerSection(data).blocks(blocks);
        experiments(blocks);
        GroupSections sections = new GroupSections(data);
        sections.groups(blocks);
        sections.failover(blocks);
        sections.byTarget(blocks);
        rawData(blocks);
        return blocks;
    }

    private void run(List<Block> blocks) {
        RunManifest manifest = data.manifest();
        blocks.add(new Block.Heading(1, TITLE));
        blocks.add(new Block.Paragraph("Started " + manifest.started() + ", "
                + (manifest.finished() == null ? "not finished (the report shows the experiments written so far)"
                        : "finished " + manifest.finished())
                + ". Preset: " + manifest.preset() + ". Experiments: " + data.all().size() + " written of "
                + manifest.experiments().size() + " planned."));
        blocks.add(new Block.Paragraph("Command:"));
        blocks.add(new Block.Code(manifest.command()));
        MachineInfo machine = manifest.machine();
        blocks.add(new Block.Heading(2, "Machine"));
        blocks.add(new Block.Bullets(List.of("JDK: " + machine.jdk(), "OS: " + machine.os(),
                "CPU: " + machine.cpu() + ", " + machine.cores() + " cores available to the JVM",
                "Load average (1/5/15 min) when the run started: " + machine.loadAverage())));
        blocks.add(new Block.Heading(2, "Load"));
        List<String> loads = new ArrayList<>();
        for (String load : data.loads()) {
            loads.add(data.describeLoad(load) + ": closed-loop virtual users; total users = nodes × "
                    + data.usersPerNode(load));
        }
        if (loads.isEmpty()) {
            loads.add("no experiment was written");
        }
        blocks.add(new Block.Bullets(loads));
    }

    private void reading(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "How to read this report"));
        blocks.add(new Block.Bullets(List.of(
                "All comparisons are ratios within this run: the study's machines and this one differ, so absolute "
                        + "figures are never compared with the study's.",
                "Throughput and response-time ratios divide by the 1-node none experiment at the same load (the "
                        + "study's baseline). When a load lacks it, that load's ratios divide by none at the same size "
                        + "and every such table and chart says FALLBACK.",
                "Orderings: \"a < b\" holds when a is at least " + Comparisons.pct(Comparisons.ORDER_MARGIN)
                        + " below b; \"a ≤ b\" when a is at most " + Comparisons.pct(Comparisons.ORDER_MARGIN)
                        + " above b; \"a ≪ b\" when a is at most " + Comparisons.pct(Comparisons.MUCH_LESS) + " of b.",
                "Equalities: throughput within ±" + Comparisons.pct(StudyFindings.SAME_THROUGHPUT)
                        + ", mean response time within ±" + Comparisons.pct(StudyFindings.SAME_RESPONSE_TIME)
                        + ", interconnect bytes within ±" + Comparisons.pct(StudyFindings.SAME_BYTES)
                        + ", bytes ratios (write-quota) within ±" + Comparisons.pct(StudyFindings.BYTES_RATIO)
                        + " of the expected ratio; scaling like the study's none: ratio ≥ "
                        + Format.ratio(StudyFindings.SCALING_EFFICIENCY) + " × nodes.",
                "Pages per second count the pages served: an answer that was an error (a balancer's 502 or 503, a "
                        + "page other than the one expected) counts among the errors, not as a page. Response times "
                        + "cover every answer, errors included, and every timeout at the time it waited.",
                "Interconnect traffic is compared per page served (KB sent + received by all nodes per page): the "
                        + "study compared KB/s at equal load, and in a closed loop KB/s follow the pages per second, so "
                        + "per page keeps throughput noise out of the replication volume. The tables still show KB/s "
                        + "per node.",
                "Two patterns are compared at the same load and at the largest size (≥ 2 nodes) at which both were "
                        + "measured; the figures say which.",
                "Verdict: reproduced = every check measured and holding; not reproduced = every measured check "
                        + "failing; partly = some hold and some fail, or some could not be measured; not measured = no "
                        + "check could be made (the reason is given).",
                "Failover experiments (a node killed) are left out of every ratio, finding and chart except the "
                        + "failover section.")));
    }

    private void findings(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Findings F1–F13"));
        List<List<String>> rows = new ArrayList<>();
        for (Finding finding : findings) {
            String checks = finding.checks().stream().map(Check::line).collect(Collectors.joining("\n"));
            rows.add(List.of(finding.id(), finding.study(), finding.load(), checks, finding.verdict().label(),
                    finding.remark()));
        }
        blocks.add(new Block.Table(List.of("#", "the study", "load used", "checks (expected, tolerance — outcome: "
                + "this run's figures)", "verdict", "not judged"), rows));
        long reproduced = findings.stream().filter(f -> f.verdict() == Verdict.REPRODUCED).count();
        long partly = findings.stream().filter(f -> f.verdict() == Verdict.PARTLY).count();
        long not = findings.stream().filter(f -> f.verdict() == Verdict.NOT_REPRODUCED).count();
        long unmeasured = findings.stream().filter(f -> f.verdict() == Verdict.NOT_MEASURED).count();
        blocks.add(new Block.Paragraph("Reproduced " + reproduced + ", partly " + partly + ", not reproduced " + not
                + ", not measured " + unmeasured + " of " + findings.size() + "."));
    }

    private void targets(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Targets"));
        blocks.add(new Block.Paragraph("Throughput targets are ratios within this run at the heaviest load measured "
                + "(the saturation point on this machine), at the largest size at which both patterns ran."));
        List<List<String>> rows = targets.stream()
                .map(t -> List.of(t.target(), t.goal(), t.measured(), t.status().label())).toList();
        blocks.add(new Block.Table(List.of("target", "rule", "measured", "status"), rows));
    }

    private void experiments(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Experiments"));
        blocks.add(new Block.Paragraph("Response times in milliseconds from the scheduled send time; CPU % of one "
                + "node process (100 = one core), mean over nodes; interconnect KB/s per node, sent + received."));
        List<List<String>> rows = new ArrayList<>();
        for (ExperimentResult result : data.all()) {
            ExperimentSpec s = result.spec();
            Summary m = result.summary();
            List<String> notes = new ArrayList<>(result.notes());
            if (s.failover()) {
                notes.add(0, "failover experiment");
            }
            rows.add(List.of(s.id(), s.target(), s.pattern(), String.valueOf(s.nodes()), String.valueOf(s.usersPerNode()),
                    s.load(), s.warmup().toSeconds() + " + " + s.duration().toSeconds(),
                    Format.number(m.pagesPerSecond(), 1), Format.number(m.meanMs(), 1), Format.number(m.p50Ms(), 1),
                    Format.number(m.p90Ms(), 1), Format.number(m.p99Ms(), 1), Format.number(m.cpuPercentPerNode(), 1),
                    m.interconnectUnmeasured() ? "not measured" : Format.number(m.interconnectKBpsPerNode(), 1),
                    String.valueOf(m.errors()),
                    String.valueOf(m.sessionsLost()), String.join("; ", notes)));
        }
        blocks.add(new Block.Table(List.of("id", "target", "pattern", "nodes", "users/node", "load",
                "warm-up + window s", "pages/s", "mean ms", "p50 ms", "p90 ms", "p99 ms", "CPU %", "interconnect KB/s",
                "errors", "sessions lost", "notes"), rows));
        List<String> missing = data.manifest().experiments().stream().map(ExperimentSpec::id)
                .filter(id -> data.all().stream().noneMatch(r -> r.spec().id().equals(id))).toList();
        if (!missing.isEmpty()) {
            blocks.add(new Block.Paragraph("Planned but not written: " + String.join(", ", missing) + "."));
        }
    }

    private void rawData(List<Block> blocks) {
        blocks.add(new Block.Heading(2, "Raw data"));
        List<Block.Link> links = new ArrayList<>(List.of(new Block.Link("run.json (manifest)", "run.json"),
                new Block.Link("summary.csv (one row per experiment)", "summary.csv")));
        for (ExperimentResult result : data.all()) {
            String id = result.spec().id();
            links.add(new Block.Link(id + ": experiment JSON", "experiments/" + id + ".json"));
            links.add(new Block.Link(id + ": per-second throughput CSV", "timeline/" + id + ".csv"));
            links.add(new Block.Link(id + ": per-node samples CSV", "nodes/" + id + ".csv"));
        }
        blocks.add(new Block.Links(links));
        blocks.add(new Block.Paragraph("Regenerate this report from the raw data: java -cp <bench classpath> "
                + StudyReport.class.getName() + " <run folder>"));
    }
}
