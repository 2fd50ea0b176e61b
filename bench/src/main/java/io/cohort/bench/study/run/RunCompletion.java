package io.cohort.bench.study.run;

import io.cohort.bench.study.report.StudyReport;
import java.io.PrintStream;
import java.nio.file.Path;

/** The last step of a run, once every experiment is in the run folder: renders the report from the folder. */
final class RunCompletion {

    private RunCompletion() {
    }

    static void complete(Path runFolder, PrintStream out) {
        StudyReport.write(runFolder);
        Path folder = runFolder.toAbsolutePath().normalize();
        out.println("Run folder: " + folder);
        out.println("Report:     " + folder.resolve("summary.md") + " and " + folder.resolve("index.html"));
    }
}
