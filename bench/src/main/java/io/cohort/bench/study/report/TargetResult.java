package io.cohort.bench.study.report;

import java.util.Objects;

/**
 * One of Cohort's performance or failover targets for the study rerun, with what this run measured.
 *
 * @param target    the target as the issue states it
 * @param goal      the exact rule applied, with the study's figure where it has one
 * @param measured  the figures, with load and size, or why nothing was measured
 * @param status    met, not met or not measured
 */
record TargetResult(String target, String goal, String measured, Status status) {

    enum Status {
        MET("met"), NOT_MET("not met"), NOT_MEASURED("not measured");

        private final String label;

        Status(String label) {
            this.label = label;
        }

        String label() {
            return label;
        }

        static Status of(boolean met) {
            return met ? MET : NOT_MET;
        }
    }

    TargetResult {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(goal, "goal");
        Objects.requireNonNull(measured, "measured");
        Objects.requireNonNull(status, "status");
    }
}
