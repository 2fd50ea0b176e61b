package io.cohort.bench.study.run;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The last step of a run, once every experiment is in the run folder: renders the report from the folder.
 *
 * <p>MERGE POINT: the report ({@code io.cohort.bench.study.report.StudyReport.write(Path runFolder)}) is written
 * in a parallel branch. Wire it here, in this one place: replace the body of {@link #complete} with
 * {@code StudyReport.write(runFolder);} followed by the message below.
 */
final class RunCompletion {

    private RunCompletion() {
    }

    static void complete(Path runFolder, PrintStream out) {
        // TODO(merge): io.cohort.bench.study.report.StudyReport.write(runFolder);
        out.println("Run folder: " + runFolder.toAbsolutePath().normalize());
    }
}
