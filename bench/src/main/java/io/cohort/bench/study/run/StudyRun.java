package io.cohort.bench.study.run;

import io.cohort.bench.MachineInfo;
import io.cohort.bench.study.model.ExperimentResult;
import io.cohort.bench.study.model.ExperimentSpec;
import io.cohort.bench.study.model.RunFolder;
import io.cohort.bench.study.model.RunManifest;
import io.cohort.cli.cluster.StartupFailure;
import java.time.Instant;
import java.util.List;

/**
 * A whole run: writes the manifest, runs the experiments in order (one that fails is reported and the run goes
 * on), writes each result to the run folder as soon as it is measured, and marks the manifest finished.
 */
final class StudyRun {

    private final RunFolder folder;
    private final ExperimentRunner runner;
    private final Progress progress;

    StudyRun(RunFolder folder, ExperimentRunner runner, Progress progress) {
        this.folder = folder;
        this.runner = runner;
        this.progress = progress;
    }

    /** Runs every experiment; returns how many failed. */
    int run(String command, String preset, List<ExperimentSpec> experiments) {
        RunManifest manifest = new RunManifest(command, Instant.now(), null, MachineInfo.now(), preset, experiments);
        folder.writeManifest(manifest);
        int failed = 0;
        for (int k = 0; k < experiments.size(); k++) {
            ExperimentSpec spec = experiments.get(k);
            progress.experimentStarted(k, experiments.size(), spec);
            try {
                ExperimentResult result = runner.run(spec, progress);
                folder.writeExperiment(result);
                progress.experimentFinished(result);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                progress.experimentFailed(spec, "interrupted");
                return failed + experiments.size() - k;
            } catch (Exception e) {
                failed++;
                progress.experimentFailed(spec, describe(e));
            }
        }
        folder.writeManifest(manifest.finishedAt(Instant.now()));
        return failed;
    }

    private static String describe(Exception e) {
        StringBuilder text = new StringBuilder(e.getMessage() == null ? e.toString() : e.getMessage());
        if (e instanceof StartupFailure failure) {
            text.append(" (").append(failure.node().logFile()).append(")");
            failure.logTail().forEach(line -> text.append("\n  | ").append(line));
        }
        return text.toString();
    }
}
