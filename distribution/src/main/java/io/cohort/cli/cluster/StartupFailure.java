package io.cohort.cli.cluster;

import java.util.List;

/** A node of a local cluster that did not come up; the cluster has stopped the others. */
public final class StartupFailure extends Exception {

    private static final long serialVersionUID = 1L;
    private static final int TAIL_LINES = 40;

    private final transient PlannedNode node;

    public StartupFailure(PlannedNode node, String reason) {
        super("node " + node.name() + " " + reason + "; its log: " + node.logFile());
        this.node = node;
    }

    public PlannedNode node() {
        return node;
    }

    /** The last lines of the node's log, to show with the message. */
    public List<String> logTail() {
        return LogTail.of(node.logFile(), TAIL_LINES);
    }
}
