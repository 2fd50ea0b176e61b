package io.cohort.cli.cluster;

import java.util.Objects;

/**
 * A node JVM started by {@link NodeProcesses}.
 *
 * @param node    what it runs
 * @param process the JVM
 */
public record NodeProcess(PlannedNode node, Process process) {

    public NodeProcess {
        Objects.requireNonNull(node, "node");
        Objects.requireNonNull(process, "process");
    }

    public long pid() {
        return process.pid();
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** How the process ended, for messages: {@code exited with code 1} or {@code is running}. */
    public String describeExit() {
        return process.isAlive() ? "is running" : "exited with code " + process.exitValue();
    }
}
