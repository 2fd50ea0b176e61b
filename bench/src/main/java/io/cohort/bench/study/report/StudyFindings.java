package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.SystemNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Tests the study's findings F1–F13 (PAPER.md) against one run: each finding becomes a few
 * {@link Check}s of shape or ordering with explicit tolerances, and its {@link Verdict} follows from
 * them. Absolute figures are never compared with the study's: its machines and ours differ; only
 * ratios within this run are.
 */
final class StudyFindings {

    /** Throughput "matches" another pattern's within this fraction. */
    static final double SAME_THROUGHPUT = 0.05;
    /** Mean response time "matches" another pattern's within this fraction (response times are noisy). */
    static final double SAME_RESPONSE_TIME = 0.25;
    /** Interconnect bytes per node are "equal" or "constant" within this fraction. */
    static final double SAME_BYTES = 0.15;
    /** A bytes ratio such as wq2 : wq1 = 2 holds within this fraction of the expected ratio. */
    static final double BYTES_RATIO = 0.20;
    /** Scaling "as no replication" (F1): throughput ratio at N nodes ≥ this × N. */
    static final double SCALING_EFFICIENCY = 0.90;

    private final RunData data;
    private final Comparisons compare;
    private final Optional<String> medium;
    private final Optional<String> high;

    StudyFindings(RunData data) {
        this.data = data;
        this.compare = new Comparisons(data);
        this.medium = data.mediumLoad();
        this.high = data.highLoad();
    }

    List<Finding> evaluate() {
        return List.of(f1(), f2(), f3(), f4(), f5(), f6(), f7(), f8(), f9(), f10(), f11(), f12(), f13());
    }

    private Finding f1() {
        List<Check> checks = new ArrayList<>();
        String scaling = "throughput ratio of none ≥ " + Format.ratio(SCALING_EFFICIENCY) + " × nodes at every size";
        String flat = "response-time ratio of none ≤ " + Format.ratio(1 + SAME_RESPONSE_TIME) + " at every size";
        if (medium.isEmpty()) {
            checks.add(Check.notMeasured(scaling, compare.missingLoad("medium")));
        } else if (Baseline.at(data, medium.get()) != Baseline.ONE_NODE_NONE) {
            checks.add(Check.notMeasured(scaling + "; " + flat, "needs the 1-node none baseline at "
                    + data.describeLoad(medium.get()) + "; this run: "
                    + data.describeCoverage(medium.get(), List.of(RunData.NONE))));
        } else {
            List<RatioPoint> points = data.nodeCounts(RunData.NONE, medium.get()).stream().filter(n -> n >= 2)
                    .map(n -> RatioPoint.of(data, RunData.NONE, n, medium.get()).orElseThrow()).toList();
            if (points.isEmpty()) {
                checks.add(Check.notMeasured(scaling + "; " + flat, "needs none at ≥ 2 nodes at "
                        + data.describeLoad(medium.get())));
            } else {
                checks.add(Check.of(scaling,
                        points.stream().allMatch(p -> p.throughput() >= SCALING_EFFICIENCY * p.nodes()),
                        ratios(points, true)));
                checks.add(Check.of(flat,
                        points.stream().allMatch(p -> p.responseTime() <= 1 + SAME_RESPONSE_TIME),
                        ratios(points, false)));
            }
        }
        return new Finding("F1", "No replication: throughput ratio 1.99 / 3.95 / 5.92 / 7.88 at 2 / 4 / 6 / 8 nodes; "
                + "response time flat.", loadText(medium, "medium"), checks,
                "Every node of a local run shares this machine's cores, so linear scaling needs enough idle cores.");
    }

    private static String ratios(List<RatioPoint> points, boolean throughput) {
        return String.join(", ", points.stream().map(p -> Format.ratio(throughput ? p.throughput() : p.responseTime())
                + " at " + p.nodes()).toList()) + " nodes";
    }

    private Finding f2() {
        List<Check> checks = new ArrayList<>();
        for (String load : data.loads()) {
            String expectation = "throughput 2211 / none in [0.90, " + Format.ratio(1 + SAME_THROUGHPUT)
                    + "] at every size ≥ 2 at " + load;
            List<Integer> sizes = data.commonNodeCounts(load, 2, List.of("2211", RunData.NONE));
            if (sizes.isEmpty()) {
                checks.add(Check.notMeasured(expectation, "needs 2211 and none at one size of ≥ 2 nodes; this run: "
                        + data.describeCoverage(load, List.of("2211", RunData.NONE))));
                continue;
            }
            List<Check> perSize = sizes.stream().map(n -> compare.compareAt(expectation, Measure.THROUGHPUT, "2211",
                    RunData.NONE, load, n, r -> r >= 0.90 && r <= 1 + SAME_THROUGHPUT)).toList();
            boolean holds = perSize.stream().allMatch(c -> c.outcome() == Check.Outcome.HOLDS);
            checks.add(Check.of(expectation, holds,
                    String.join("; ", perSize.stream().map(Check::evidence).toList())));
        }
        if (checks.isEmpty()) {
            checks.add(Check.notMeasured("throughput 2211 / none in [0.90, 1.05]", "the run has no experiment"));
        }
        return new Finding("F2", "Pattern 2211: 1.90 / 3.76 / 5.61 / 7.44 — about 5% below no replication at every size.",
                "every load", checks, "");
    }

    private Finding f3() {
        List<Check> checks = new ArrayList<>();
        for (String pattern : List.of("2211", "1211")) {
            checks.add(compare.near(Measure.THROUGHPUT, pattern, RunData.NONE, SAME_THROUGHPUT, medium, "medium"));
            checks.add(compare.near(Measure.RESPONSE_TIME, pattern, RunData.NONE, SAME_RESPONSE_TIME, medium,
                    "medium"));
        }
        checks.add(compare.below(Measure.CPU, RunData.NONE, "2211", medium, "medium"));
        checks.add(compare.near(Measure.INTERCONNECT, "1211", "2211", SAME_BYTES, medium, "medium"));
        checks.add(compare.constantOverSizes(Measure.INTERCONNECT, "2211", SAME_BYTES, medium, "medium"));
        return new Finding("F3", "Medium load: peer (2211) and multicast (1211) match no replication in throughput and "
                + "response time; CPU about +15%; interconnect bytes per node equal for both and constant from 2 to 8 "
                + "nodes (each session goes to one other node).", loadText(medium, "medium"), checks, "");
    }

    private Finding f4() {
        List<Check> checks = new ArrayList<>();
        for (String pattern : List.of("2211", "1211")) {
            checks.add(compare.ratioBetween(Measure.THROUGHPUT, pattern, RunData.NONE, 0.85, 1 + SAME_THROUGHPUT, high,
                    "high"));
            checks.add(compare.notAbove(Measure.RESPONSE_TIME, RunData.NONE, pattern, high, "high"));
        }
        return new Finding("F4", "High load: peer and multicast lose ~5% throughput; response time ~2×. Multicast was "
                + "less stable under high load.", loadText(high, "high"), checks,
                "Stability is not judged by a figure: see the timelines and the notes of the 1211 experiments.");
    }

    private Finding f5() {
        List<Check> checks = List.of(
                compare.muchBelow(Measure.INTERCONNECT, "2311", "2211", medium, "medium"),
                compare.below(Measure.INTERCONNECT, "2211", "2111", medium, "medium"),
                compare.below(Measure.CPU, "2211", "2111", medium, "medium"));
        return new Finding("F5", "Triggers, medium load: onSetAttribute ≈ 9 MB/s interconnect per node, onRequestEnd "
                + "≈ 2 MB/s less, onShutdown ≈ 70 KB/s (membership traffic only); onSetAttribute uses more CPU.",
                loadText(medium, "medium"), checks, "");
    }

    private Finding f6() {
        List<Check> checks = List.of(
                compare.below(Measure.THROUGHPUT, "2111", "2211", high, "high"),
                compare.below(Measure.RESPONSE_TIME, "2211", "2111", high, "high"),
                compare.near(Measure.THROUGHPUT, "2311", RunData.NONE, SAME_THROUGHPUT, high, "high"));
        return new Finding("F6", "Triggers, high load at 8 nodes: onRequestEnd −6%, onSetAttribute −16% throughput; "
                + "onSetAttribute response time 3–4×; onShutdown ≈ no replication.", loadText(high, "high"), checks,
                "Compared at the largest size the run measured both patterns, which may be fewer than 8 nodes.");
    }

    private Finding f7() {
        List<Check> checks = new ArrayList<>(List.of(
                compare.below(Measure.CPU, "2211", "2221", medium, "medium"),
                compare.below(Measure.INTERCONNECT, "2211", "2221", medium, "medium"),
                compare.notAbove(Measure.RESPONSE_TIME, "2211", "2221", medium, "medium")));
        scopePairsWhenMeasured(checks, medium, "medium");
        return new Finding("F7", "Scope, medium load: allAttributes +25% CPU and +27 MB/s interconnect vs "
                + "modifiedAttributes; response time a few % worse.", loadText(medium, "medium"), checks, "");
    }

    private Finding f8() {
        List<Check> checks = new ArrayList<>(List.of(
                compare.below(Measure.THROUGHPUT, "2221", "2211", high, "high"),
                compare.below(Measure.RESPONSE_TIME, "2211", "2221", high, "high"),
                compare.below(Measure.INTERCONNECT, "2211", "2221", high, "high")));
        scopePairsWhenMeasured(checks, high, "high");
        return new Finding("F8", "Scope, high load: allAttributes −30% throughput, response time ~8×, CPU pinned at "
                + "100%, +33 MB/s.", loadText(high, "high"), checks, "");
    }

    /** modified &lt; all in bytes for the other trigger and delivery, when the run has both patterns of a pair. */
    private void scopePairsWhenMeasured(List<Check> checks, Optional<String> load, String loadName) {
        for (List<String> pair : List.of(List.of("2111", "2121"), List.of("2212", "2222"))) {
            if (load.isPresent() && !data.nodeCounts(pair.get(0), load.get()).isEmpty()
                    && !data.nodeCounts(pair.get(1), load.get()).isEmpty()) {
                checks.add(compare.below(Measure.INTERCONNECT, pair.get(0), pair.get(1), load, loadName));
            }
        }
    }

    private Finding f9() {
        List<Check> checks = List.of(
                compare.near(Measure.THROUGHPUT, "2212", "2211", SAME_THROUGHPUT, medium, "medium"),
                compare.notAbove(Measure.RESPONSE_TIME, "2211", "2212", medium, "medium"),
                compare.notAbove(Measure.THROUGHPUT, "2112", "2111", medium, "medium"),
                compare.notAbove(Measure.RESPONSE_TIME, "2111", "2112", medium, "medium"));
        return new Finding("F9", "Sync, medium load: with onRequestEnd hardly any difference (+0.5–0.7 MB/s, +5% CPU); "
                + "with onSetAttribute −5% throughput and 2–2.5× response time, +2 MB/s, +15% CPU.",
                loadText(medium, "medium"), checks, "");
    }

    private Finding f10() {
        List<Check> checks = new ArrayList<>(List.of(
                compare.notAbove(Measure.THROUGHPUT, "2212", "2211", high, "high"),
                compare.notAbove(Measure.THROUGHPUT, "2111", "2212", high, "high"),
                compare.notAbove(Measure.THROUGHPUT, "2112", "2111", high, "high")));
        checks.add(stopsScaling());
        return new Finding("F10", "Sync, high load: cost order 2211 < 2212 < 2111 < 2112; 2112 stops scaling with load "
                + "and stalls below 100% CPU (waiting on acknowledgements).", loadText(high, "high"), checks,
                "The CPU stall is shown in the delivery group's CPU chart, not judged.");
    }

    /** 2112 gains less throughput from medium to high load than 2211 (by the order margin). */
    private Check stopsScaling() {
        String expectation = "throughput gain medium → high of 2112 < that of 2211 (by ≥ "
                + Comparisons.pct(Comparisons.ORDER_MARGIN) + ")";
        if (medium.isEmpty() || high.isEmpty()) {
            return Check.notMeasured(expectation, compare.missingLoad(medium.isEmpty() ? "medium" : "high"));
        }
        List<Integer> both = new ArrayList<>(data.commonNodeCounts(medium.get(), 2, List.of("2112", "2211")));
        both.retainAll(data.commonNodeCounts(high.get(), 2, List.of("2112", "2211")));
        if (both.isEmpty()) {
            return Check.notMeasured(expectation, "needs 2112 and 2211 at one size at both loads; this run: "
                    + data.describeCoverage(medium.get(), List.of("2112", "2211")) + " at medium, "
                    + data.describeCoverage(high.get(), List.of("2112", "2211")) + " at high");
        }
        int nodes = both.get(both.size() - 1);
        double sync = gain("2112", nodes);
        double async = gain("2211", nodes);
        return Check.of(expectation, sync <= async * (1 - Comparisons.ORDER_MARGIN),
                "2112 ×" + Format.ratio(sync) + " vs 2211 ×" + Format.ratio(async) + " at " + nodes + " nodes");
    }

    private double gain(String pattern, int nodes) {
        ExperimentResult atHigh = data.find(pattern, nodes, high.orElseThrow()).orElseThrow();
        ExperimentResult atMedium = data.find(pattern, nodes, medium.orElseThrow()).orElseThrow();
        return atHigh.summary().pagesPerSecond() / atMedium.summary().pagesPerSecond();
    }

    private Finding f11() {
        return new WriteQuotaChecks(compare, medium, "medium").finding11(loadText(medium, "medium"));
    }

    private Finding f12() {
        return new WriteQuotaChecks(compare, high, "high").finding12(loadText(high, "high"));
    }

    private Finding f13() {
        Optional<String> load = data.highestLoad();
        List<Check> checks = new ArrayList<>();
        if (load.isPresent()) {
            List<String> rivals = data.all().stream().map(r -> r.spec())
                    .filter(s -> s.target().equals(SystemNames.COHORT) && !s.failover() && s.load().equals(load.get()))
                    .map(s -> s.pattern()).distinct()
                    .filter(p -> !p.equals("2211") && !p.equals(RunData.NONE) && !p.equals("2311")).toList();
            for (String rival : rivals) {
                checks.add(compare.notAbove(Measure.THROUGHPUT, rival, "2211", load, "high"));
            }
        }
        if (checks.isEmpty()) {
            checks.add(Check.notMeasured("throughput of every other replicating pattern ≤ 2211's (within "
                    + Comparisons.pct(Comparisons.ORDER_MARGIN) + ")", "needs 2211 and at least one other replicating "
                    + "pattern (onShutdown does not replicate while running)"));
        }
        return new Finding("F13", "Best practice from the study: peer-to-peer, onRequestEnd, modifiedAttributes, "
                + "asynchronous, a dedicated interconnect network.", loadText(load, "highest"), checks,
                "A dedicated interconnect network cannot be judged: a local run replicates over loopback.");
    }

    private String loadText(Optional<String> load, String name) {
        return load.map(data::describeLoad).orElse("no " + name + " load in this run");
    }
}
