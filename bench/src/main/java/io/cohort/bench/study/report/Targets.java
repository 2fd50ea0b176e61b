package io.cohort.bench.study.report;

import io.cohort.bench.Median;

import io.cohort.bench.study.driver.DriverSettings;
import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.FailoverOutcome;
import io.cohort.bench.study.model.SystemNames;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.DoublePredicate;
import java.util.function.ToLongFunction;

/**
 * Cohort's targets for the rerun: throughput ratios within this run at the heaviest load measured
 * (saturation on this machine) and the failover outcomes. Throughput is compared at the heaviest load
 * at which both patterns were measured at one size of at least 2 nodes, at the largest such size. When both
 * were measured in several rounds ({@code --rounds}), the target is judged on the median of the per-round ratios
 * ({@link PairedRounds}) and every round's ratio is listed. A throughput target whose reference did not saturate
 * the machine (its mean response time under {@value #SATURATION_RESPONSE_SHARE} of the think time) is reported as
 * not measured, with its figures and that reason.
 */
final class Targets {

    static final double PEER_THROUGHPUT_GOAL = 0.95;
    /**
     * A reference whose mean response time stays under this share of the think time did not saturate anything: the
     * users were thinking almost all the time, so their number, not the machine, set the throughput, and a
     * throughput target "at saturation" cannot be judged from it.
     */
    static final double SATURATION_RESPONSE_SHARE = 0.1;

    private final RunData data;

    Targets(RunData data) {
        this.data = data;
    }

    List<TargetResult> evaluate() {
        List<TargetResult> results = new ArrayList<>();
        results.add(throughput("2211 throughput ≥ 95 % of none", "2211", RunData.NONE,
                "2211 / none ≥ " + Format.ratio(PEER_THROUGHPUT_GOAL) + " (the study's figure: about 0.95)",
                ratio -> ratio >= PEER_THROUGHPUT_GOAL));
        results.add(throughput("how much 2221 (allAttributes) loses", "2221", "2211",
                "loss vs 2211 smaller than the study's 30 % (2221 / 2211 > 0.70)", ratio -> ratio > 0.70));
        results.add(throughput("how much 2111 (onSetAttribute) loses", "2111", RunData.NONE,
                "loss vs none smaller than the study's 16 % (2111 / none > 0.84)", ratio -> ratio > 0.84));
        results.add(throughput("how much 2112 (onSetAttribute, sync) loses", "2112", RunData.NONE,
                "loss vs none smaller than 16 % (the study's 2112 did worse than 2111's −16 %)", ratio -> ratio > 0.84));
        results.add(failover("2212", "failover: 2212 loses 0 sessions on SIGKILL", "sessions lost = 0",
                r -> 0L));
        results.add(failover("2211", "failover: 2211 loses at most the updates in flight",
                "sessions lost ≤ users per node (the killed node's users, each with at most one request in flight)",
                r -> (long) r.spec().usersPerNode()));
        return results;
    }

    private TargetResult throughput(String target, String pattern, String reference, String goal, DoublePredicate rule) {
        List<String> heaviestFirst = new ArrayList<>(data.loads());
        Collections.reverse(heaviestFirst);
        for (String load : heaviestFirst) {
            Optional<Integer> nodes = data.largestCommonNodeCount(load, 2, List.of(pattern, reference));
            if (nodes.isPresent()) {
                PairedRounds paired = PairedRounds.of(data, pattern, reference, nodes.get(), load);
                TargetResult result = paired.rounds().size() > 1
                        ? repeated(target, goal, rule, paired, nodes.get(), load)
                        : once(target, goal, rule, pattern, reference, nodes.get(), load);
                return atSaturation(result, reference, nodes.get(), load);
            }
        }
        return new TargetResult(target, goal, "needs " + pattern + " and " + reference
                + " at one size of ≥ 2 nodes at one load; this run has none", TargetResult.Status.NOT_MEASURED);
    }

    /** A target measured once: the two experiments' throughput. */
    private TargetResult once(String target, String goal, DoublePredicate rule, String pattern, String reference,
            int nodes, String load) {
        double value = data.find(pattern, nodes, load).orElseThrow().summary().pagesPerSecond();
        double base = data.find(reference, nodes, load).orElseThrow().summary().pagesPerSecond();
        double ratio = base == 0 ? Double.NaN : value / base;
        return new TargetResult(target, goal, pattern + " " + Measure.THROUGHPUT.format(value) + " vs " + reference
                + " " + Measure.THROUGHPUT.format(base) + ": " + Format.percent(ratio) + " (" + Format.change(ratio)
                + ") at " + nodes + " nodes, " + data.describeLoad(load) + heaviestNote(load),
                Double.isNaN(ratio) ? TargetResult.Status.NOT_MET : TargetResult.Status.of(rule.test(ratio)));
    }

    /**
     * The result as measured when the reference saturated the machine; otherwise not measured, with the figures and
     * the reason: judged on the reference's median mean response time over its rounds.
     */
    private TargetResult atSaturation(TargetResult result, String reference, int nodes, String load) {
        double median = Median.median(data.rounds(reference, nodes, load).stream()
                .mapToDouble(r -> r.summary().meanMs()).toArray());
        double thinkMs = DriverSettings.STUDY_THINK_TIME.toMillis();
        if (median >= SATURATION_RESPONSE_SHARE * thinkMs) {
            return result;
        }
        return new TargetResult(result.target(), result.goal(), result.measured() + ". Not at saturation: "
                + reference + " answered in a mean " + Format.number(median, 1) + " ms against " + (long) thinkMs
                + " ms of think time, so the users' number, not the machine, set the throughput; measure with a "
                + "higher --load", TargetResult.Status.NOT_MEASURED);
    }

    /** A target measured in several rounds: judged on the median of the per-round ratios. */
    private TargetResult repeated(String target, String goal, DoublePredicate rule, PairedRounds paired, int nodes,
            String load) {
        double median = paired.medianRatio();
        String heaviest = heaviestNote(load);
        long holding = paired.rounds().stream().filter(r -> rule.test(r.ratio())).count();
        String measured = paired.pattern() + " / " + paired.reference() + ", median of " + paired.rounds().size()
                + " paired rounds: " + Format.percent(median) + " (" + Format.change(median) + "); rounds "
                + paired.describeRatios() + " (range " + Format.percent(paired.minRatio()) + " to "
                + Format.percent(paired.maxRatio()) + "; " + holding + " of " + paired.rounds().size()
                + " rounds meet the rule) at " + nodes + " nodes, " + data.describeLoad(load) + heaviest;
        return new TargetResult(target, goal, measured, Double.isNaN(median) ? TargetResult.Status.NOT_MET
                : TargetResult.Status.of(rule.test(median)));
    }

    /** Empty at the heaviest load; else says that the heaviest load lacks one of the two patterns. */
    private String heaviestNote(String load) {
        String highest = data.highestLoad().orElseThrow();
        return load.equals(highest) ? "" : " (not the heaviest load: " + highest + " lacks one of them)";
    }

    private TargetResult failover(String pattern, String target, String goal, ToLongFunction<ExperimentResult> bound) {
        List<ExperimentResult> runs = data.failovers().stream()
                .filter(r -> r.spec().target().equals(SystemNames.COHORT) && r.spec().pattern().equals(pattern)
                        && r.failover() != null).toList();
        if (runs.isEmpty()) {
            return new TargetResult(target, goal, "no failover experiment of " + pattern + " in this run",
                    TargetResult.Status.NOT_MEASURED);
        }
        List<String> figures = new ArrayList<>();
        boolean met = true;
        for (ExperimentResult run : runs) {
            FailoverOutcome outcome = run.failover();
            long limit = bound.applyAsLong(run);
            met &= outcome.sessionsLost() <= limit;
            figures.add(run.spec().id() + ": " + outcome.sessionsLost() + " lost (limit " + limit + "), "
                    + outcome.errorsAfterKill() + " errors after the kill");
        }
        return new TargetResult(target, goal, String.join("; ", figures), TargetResult.Status.of(met));
    }
}
