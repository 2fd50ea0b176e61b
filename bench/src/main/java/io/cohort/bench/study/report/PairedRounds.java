package io.cohort.bench.study.report;

import static io.cohort.bench.Median.median;

import io.cohort.bench.study.model.ExperimentResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The throughput of one pattern against a reference pattern at the same size and load, round by round: each
 * round's ratio divides the two experiments of that round, so that drift of the machine's speed between rounds
 * (which moves both) cancels out. Rounds in which one of the two is missing are left out.
 *
 * @param pattern    the pattern measured
 * @param reference  the pattern it is divided by
 * @param rounds     the rounds measured for both, in round order
 */
record PairedRounds(String pattern, String reference, List<Round> rounds) {

    /**
     * One round of both patterns.
     *
     * @param round     the round number, from 1
     * @param value     the pattern's pages per second
     * @param base      the reference's pages per second
     */
    record Round(int round, double value, double base) {

        /** value / base; NaN when the reference served nothing. */
        double ratio() {
            return base == 0 ? Double.NaN : value / base;
        }
    }

    PairedRounds {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(reference, "reference");
        rounds = List.copyOf(rounds);
    }

    /** Pairs the rounds of {@code pattern} and {@code reference} at this size and load. */
    static PairedRounds of(RunData data, String pattern, String reference, int nodes, String load) {
        Map<Integer, ExperimentResult> bases = new LinkedHashMap<>();
        for (ExperimentResult base : data.rounds(reference, nodes, load)) {
            bases.putIfAbsent(base.spec().round(), base);
        }
        List<Round> rounds = new ArrayList<>();
        for (ExperimentResult value : data.rounds(pattern, nodes, load)) {
            ExperimentResult base = bases.get(value.spec().round());
            if (base != null && rounds.stream().noneMatch(r -> r.round() == value.spec().round())) {
                rounds.add(new Round(value.spec().round(), value.summary().pagesPerSecond(),
                        base.summary().pagesPerSecond()));
            }
        }
        rounds.sort((a, b) -> Integer.compare(a.round(), b.round()));
        return new PairedRounds(pattern, reference, rounds);
    }

    /** The median of the rounds' ratios; NaN with no round. */
    double medianRatio() {
        return median(rounds.stream().mapToDouble(Round::ratio).filter(r -> !Double.isNaN(r)).toArray());
    }


    double minRatio() {
        return rounds.stream().mapToDouble(Round::ratio).filter(r -> !Double.isNaN(r)).min().orElse(Double.NaN);
    }

    double maxRatio() {
        return rounds.stream().mapToDouble(Round::ratio).filter(r -> !Double.isNaN(r)).max().orElse(Double.NaN);
    }

    /** "92.1 %, 101.3 %, 96.0 %": each round's ratio, in round order. */
    String describeRatios() {
        return String.join(", ", rounds.stream().map(r -> Format.percent(r.ratio())).toList());
    }
}
