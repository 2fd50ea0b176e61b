package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentSpec;
import java.util.List;

/** What one {@code cohort bench} run measures: the study's matrix ({@link StudyPlan}) or the peer comparison ({@link PeerPlan}). */
public sealed interface RunPlan permits StudyPlan, PeerPlan {

    /** The preset's name as the run folder records it: {@code quick}, {@code full}, {@code custom} or {@code peers}. */
    String preset();

    /** The loads the run uses. */
    List<LoadLevel> loads();

    /** The experiments in run order. */
    List<ExperimentSpec> experiments();
}
