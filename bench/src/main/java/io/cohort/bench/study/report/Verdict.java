package io.cohort.bench.study.report;

import java.util.List;

/**
 * Whether a run reproduced one of the study's findings, decided from the finding's checks:
 * every check measured and holding is {@link #REPRODUCED}; none measured is {@link #NOT_MEASURED};
 * every measured check failing is {@link #NOT_REPRODUCED}; anything in between (some hold and some
 * fail, or all measured hold but some could not be measured) is {@link #PARTLY}.
 */
enum Verdict {
    REPRODUCED("reproduced"),
    PARTLY("partly"),
    NOT_REPRODUCED("not reproduced"),
    NOT_MEASURED("not measured");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    String label() {
        return label;
    }

    static Verdict of(List<Check> checks) {
        long holds = checks.stream().filter(c -> c.outcome() == Check.Outcome.HOLDS).count();
        long fails = checks.stream().filter(c -> c.outcome() == Check.Outcome.FAILS).count();
        if (holds + fails == 0) {
            return NOT_MEASURED;
        }
        if (fails == 0) {
            return holds == checks.size() ? REPRODUCED : PARTLY;
        }
        return holds == 0 ? NOT_REPRODUCED : PARTLY;
    }
}
