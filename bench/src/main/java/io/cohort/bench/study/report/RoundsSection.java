package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.SystemNames;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The report's section for a run with {@code --rounds}: how much {@code none} itself moved from round to round
 * (the machine's drift), and each pattern's throughput against {@code none} round by round, with the median the
 * targets judge. Absent when no experiment was repeated.
 */
final class RoundsSection {

    private final RunData data;

    RoundsSection(RunData data) {
        this.data = data;
    }

    void blocks(List<Block> blocks) {
        if (!data.hasRounds()) {
            return;
        }
        blocks.add(new Block.Heading(2, "Rounds"));
        blocks.add(new Block.Paragraph("Each pattern at 2 or more nodes was measured once per round, every second "
                + "round in reverse order. A round's ratio divides two experiments of the same round, so a change "
                + "of the machine's speed between rounds moves both sides; the median of the rounds' ratios is what "
                + "the targets judge. The other sections use the first round."));
        List<List<String>> drift = new ArrayList<>();
        List<List<String>> ratios = new ArrayList<>();
        for (String load : data.loads()) {
            for (int nodes : data.nodeCounts(RunData.NONE, load)) {
                List<ExperimentResult> baseRounds = data.rounds(RunData.NONE, nodes, load);
                if (nodes < 2 || baseRounds.size() < 2) {
                    continue;
                }
                double[] pages = baseRounds.stream().mapToDouble(r -> r.summary().pagesPerSecond()).toArray();
                double low = Arrays.stream(pages).min().orElseThrow();
                double high = Arrays.stream(pages).max().orElseThrow();
                drift.add(List.of(data.describeLoad(load), String.valueOf(nodes), String.valueOf(pages.length),
                        String.join(", ", Arrays.stream(pages).mapToObj(p -> Format.number(p, 1)).toList()),
                        Format.number(low, 1) + " to " + Format.number(high, 1) + " (max / min "
                                + Format.ratio(low == 0 ? Double.NaN : high / low) + ")"));
                for (String pattern : patterns(load, nodes)) {
                    PairedRounds paired = PairedRounds.of(data, pattern, RunData.NONE, nodes, load);
                    if (paired.rounds().size() < 2) {
                        continue;
                    }
                    ratios.add(List.of(pattern, data.describeLoad(load), String.valueOf(nodes),
                            String.valueOf(paired.rounds().size()), paired.describeRatios(),
                            Format.percent(paired.medianRatio()) + " (" + Format.change(paired.medianRatio()) + ")",
                            Format.percent(paired.minRatio()) + " to " + Format.percent(paired.maxRatio())));
                }
            }
        }
        if (!drift.isEmpty()) {
            blocks.add(new Block.Paragraph("none, round by round (pages/s):"));
            blocks.add(new Block.Table(List.of("load", "nodes", "rounds", "pages/s per round", "range"), drift));
        }
        if (!ratios.isEmpty()) {
            blocks.add(new Block.Paragraph("Throughput against none of the same round:"));
            blocks.add(new Block.Table(List.of("pattern", "load", "nodes", "rounds", "ratio per round",
                    "median", "range"), ratios));
        }
    }

    /** The replicating patterns measured at this load and size, in the order of the run's first round. */
    private List<String> patterns(String load, int nodes) {
        Set<String> patterns = new LinkedHashSet<>();
        for (ExperimentResult result : data.all()) {
            ExperimentSpec spec = result.spec();
            if (!spec.failover() && spec.target().equals(SystemNames.COHORT) && spec.nodes() == nodes
                    && spec.load().equals(load) && !spec.pattern().equals(RunData.NONE) && spec.round() == 1) {
                patterns.add(spec.pattern());
            }
        }
        return List.copyOf(patterns);
    }
}
