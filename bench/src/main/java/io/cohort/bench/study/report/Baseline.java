package io.cohort.bench.study.report;

import io.cohort.bench.study.model.ExperimentResult;
import java.util.Optional;

/**
 * What the ratios of one load are relative to. The study divides by the 1-node system without
 * replication at the same load; when the run lacks that experiment, the report falls back to the
 * {@code none} experiment of the same size and says so wherever such a ratio appears.
 */
enum Baseline {
    ONE_NODE_NONE("ratio to 1-node none at the same load (the study's baseline)"),
    SAME_SIZE_NONE("ratio to none at the same size and load (FALLBACK: the run has no 1-node none at this load, "
            + "so ratios show the cost of replication, not scaling)");

    private final String description;

    Baseline(String description) {
        this.description = description;
    }

    String description() {
        return description;
    }

    /** The baseline the ratios at this load use. */
    static Baseline at(RunData data, String load) {
        return data.find(RunData.NONE, 1, load).isPresent() ? ONE_NODE_NONE : SAME_SIZE_NONE;
    }

    /** The experiment an experiment of {@code nodes} nodes at this load is divided by, if measured. */
    Optional<ExperimentResult> experiment(RunData data, int nodes, String load) {
        return data.find(RunData.NONE, this == ONE_NODE_NONE ? 1 : nodes, load);
    }
}
