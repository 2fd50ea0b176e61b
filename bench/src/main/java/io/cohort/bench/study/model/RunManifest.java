package io.cohort.bench.study.model;

import io.cohort.bench.MachineInfo;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What a run was: the exact command line, when it ran, on what machine, which preset and which
 * experiments in which order.
 *
 * @param command      the command line as the user typed it (for the report's "reproduce" line)
 * @param started      when the first experiment started
 * @param finished     when the last experiment ended (null while the run is in progress)
 * @param machine      the machine the run was measured on
 * @param preset       {@code quick}, {@code full} or {@code custom}
 * @param experiments  the planned experiments, in run order
 */
public record RunManifest(String command, Instant started, Instant finished, MachineInfo machine, String preset,
        List<ExperimentSpec> experiments) {

    public RunManifest {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(machine, "machine");
        Objects.requireNonNull(preset, "preset");
        experiments = List.copyOf(experiments);
    }

    /** The same manifest, finished at {@code when}. */
    public RunManifest finishedAt(Instant when) {
        return new RunManifest(command, started, when, machine, preset, experiments);
    }
}
