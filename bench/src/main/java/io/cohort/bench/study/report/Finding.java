package io.cohort.bench.study.report;

import java.util.List;
import java.util.Objects;

/**
 * One of the study's findings F1–F13 next to what this run measured.
 *
 * @param id         {@code F1} … {@code F13}
 * @param study      the study's statement (PAPER.md)
 * @param load       which of the run's loads the checks use ("medium (350 users per node)"), or a reason
 * @param checks     the shapes and orderings tested, each with its tolerance and figures
 * @param remark     what the checks deliberately do not judge, or empty
 */
record Finding(String id, String study, String load, List<Check> checks, String remark) {

    Finding {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(study, "study");
        Objects.requireNonNull(load, "load");
        checks = List.copyOf(checks);
        Objects.requireNonNull(remark, "remark");
        if (checks.isEmpty()) {
            throw new IllegalArgumentException(id + " has no check");
        }
    }

    Verdict verdict() {
        return Verdict.of(checks);
    }
}
