package io.cohort.bench.study.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;

/**
 * The write-quota findings F11 and F12. A quota of q copies each session to min(q, N − 1) other
 * members, so at 2 nodes every quota sends the same bytes (the study: "2-node results identical for
 * any quota"), and the 1 : 2 : 3 shape can only show at 4 nodes or more.
 */
final class WriteQuotaChecks {

    static final int FULL_SHAPE_NODES = 4;
    private static final List<String> QUOTAS = List.of("2211", "2211wq2", "2211wq3");

    private final Comparisons compare;
    private final RunData data;
    private final Optional<String> load;
    private final String loadName;

    WriteQuotaChecks(Comparisons compare, Optional<String> load, String loadName) {
        this.compare = compare;
        this.data = compare.data();
        this.load = load;
        this.loadName = loadName;
    }

    Finding finding11(String loadText) {
        List<Check> checks = new ArrayList<>();
        for (int quota = 2; quota <= 3; quota++) {
            checks.add(twoNodesEqual(QUOTAS.get(quota - 1)));
        }
        for (int quota = 2; quota <= 3; quota++) {
            double expected = quota;
            checks.add(atFullShape("interconnect " + QUOTAS.get(quota - 1) + " / 2211 ≈ " + quota + " (±"
                    + Comparisons.pct(StudyFindings.BYTES_RATIO) + ") at ≥ " + FULL_SHAPE_NODES + " nodes",
                    Measure.INTERCONNECT, QUOTAS.get(quota - 1), "2211",
                    r -> Math.abs(r / expected - 1) <= StudyFindings.BYTES_RATIO));
        }
        checks.add(atFullShape(notAbove(Measure.CPU, "2211", "2211wq2"), Measure.CPU, "2211", "2211wq2",
                r -> r <= 1 + Comparisons.ORDER_MARGIN));
        checks.add(atFullShape(notAbove(Measure.CPU, "2211wq2", "2211wq3"), Measure.CPU, "2211wq2", "2211wq3",
                r -> r <= 1 + Comparisons.ORDER_MARGIN));
        return new Finding("F11", "Write-quota, medium load: interconnect bytes ×2 and ×3 for quota 2 and 3; CPU +5% "
                + "per step; 2-node results identical for any quota.", loadText, checks,
                "At 2 nodes the expected shape is equal bytes for every quota; 1 : 2 : 3 needs ≥ "
                        + FULL_SHAPE_NODES + " nodes.");
    }

    Finding finding12(String loadText) {
        List<Check> checks = List.of(
                atFullShape(Measure.THROUGHPUT + " 2211wq2 < 2211 (by ≥ " + Comparisons.pct(Comparisons.ORDER_MARGIN)
                        + ") at ≥ " + FULL_SHAPE_NODES + " nodes", Measure.THROUGHPUT, "2211wq2", "2211",
                        r -> r <= 1 - Comparisons.ORDER_MARGIN),
                atFullShape(notAbove(Measure.THROUGHPUT, "2211wq3", "2211wq2"), Measure.THROUGHPUT, "2211wq3",
                        "2211wq2", r -> r <= 1 + Comparisons.ORDER_MARGIN));
        return new Finding("F12", "Write-quota, high load: quota 1→2 −10%, 2→3 −5% throughput; replicas exhausted a "
                + "2 GB heap (OutOfMemory) until two JVMs ran per node.", loadText, checks,
                "Memory exhaustion shows as errors and notes in the experiment table, not judged here.");
    }

    private static String notAbove(Measure measure, String a, String b) {
        return measure + " " + a + " ≤ " + b + " (within " + Comparisons.pct(Comparisons.ORDER_MARGIN) + ") at ≥ "
                + FULL_SHAPE_NODES + " nodes";
    }

    private Check twoNodesEqual(String quota) {
        String expectation = "interconnect " + quota + " ≈ 2211 at 2 nodes (±" + Comparisons.pct(StudyFindings.SAME_BYTES)
                + ")";
        if (load.isEmpty()) {
            return Check.notMeasured(expectation, compare.missingLoad(loadName));
        }
        if (!data.commonNodeCounts(load.get(), 2, List.of(quota, "2211")).contains(2)) {
            return Check.notMeasured(expectation, "needs " + quota + " and 2211 at 2 nodes at "
                    + data.describeLoad(load.get()) + "; this run: " + data.describeCoverage(load.get(),
                            List.of(quota, "2211")));
        }
        return compare.compareAt(expectation, Measure.INTERCONNECT, quota, "2211", load.get(), 2,
                r -> Math.abs(r - 1) <= StudyFindings.SAME_BYTES);
    }

    private Check atFullShape(String expectation, Measure measure, String a, String b,
            DoublePredicate test) {
        if (load.isEmpty()) {
            return Check.notMeasured(expectation, compare.missingLoad(loadName));
        }
        if (data.largestCommonNodeCount(load.get(), FULL_SHAPE_NODES, List.of(a, b)).isEmpty()) {
            int largest = QUOTAS.stream().flatMap(p -> data.nodeCounts(p, load.get()).stream())
                    .mapToInt(Integer::intValue).max().orElse(0);
            return Check.notMeasured(expectation, "needs " + a + " and " + b + " at ≥ " + FULL_SHAPE_NODES
                    + " nodes; this run had " + (largest == 0 ? "no write-quota experiment" : "at most " + largest
                    + (largest == 1 ? " node" : " nodes")) + " at " + data.describeLoad(load.get()));
        }
        return compare.compare(expectation, measure, a, b, load, loadName, FULL_SHAPE_NODES, test);
    }
}
