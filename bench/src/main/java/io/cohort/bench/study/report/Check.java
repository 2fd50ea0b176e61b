package io.cohort.bench.study.report;

import java.util.Objects;

/**
 * One shape or ordering a finding expects, tested against the run's data.
 *
 * @param expectation  what is expected, with its tolerance ("interconnect 2311 ≤ 10 % of 2211")
 * @param outcome      whether the data shows it, or why it cannot tell
 * @param evidence     the figures compared, or, when not measured, why not
 */
record Check(String expectation, Outcome outcome, String evidence) {

    /** Whether the data shows the expectation. */
    enum Outcome {
        HOLDS, FAILS, NOT_MEASURED
    }

    Check {
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(evidence, "evidence");
    }

    static Check of(String expectation, boolean holds, String evidence) {
        return new Check(expectation, holds ? Outcome.HOLDS : Outcome.FAILS, evidence);
    }

    static Check notMeasured(String expectation, String why) {
        return new Check(expectation, Outcome.NOT_MEASURED, why);
    }

    /** "✓ interconnect 2311 ≤ 10 % of 2211: 2311 70 KB/s vs 2211 2,000 KB/s at 4 nodes". */
    String line() {
        String mark = switch (outcome) {
            case HOLDS -> "holds";
            case FAILS -> "FAILS";
            case NOT_MEASURED -> "not measured";
        };
        return expectation + " — " + mark + ": " + evidence;
    }
}
