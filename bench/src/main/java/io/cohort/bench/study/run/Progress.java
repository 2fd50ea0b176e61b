package io.cohort.bench.study.run;

import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;

/** What a run tells its user while it goes: which experiment, which phase, live figures. */
interface Progress extends AutoCloseable {

    void experimentStarted(int index, int count, ExperimentSpec spec);

    /** e.g. "starting 2 nodes", "warm-up", "measuring", "node n1 killed". */
    void phase(String text);

    /** Once a second while the load runs: the last second's pages and the totals so far. */
    void tick(long pagesLastSecond, long errorsSoFar, long sessionsLostSoFar);

    void experimentFinished(ExperimentResult result);

    void experimentFailed(ExperimentSpec spec, String reason);

    @Override
    void close();
}
