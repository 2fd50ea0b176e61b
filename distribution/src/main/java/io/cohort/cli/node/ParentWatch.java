package io.cohort.cli.node;

import io.cohort.node.CohortNode;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ties a node process to the process that started it (a {@code cohort cluster} launcher): when the parent exits,
 * even by SIGKILL, the node stops rather than live on as an orphan holding its ports. The watch begins before the
 * node starts, because starting takes seconds: a parent that exits meanwhile stops the node as soon as it has
 * started. A parent that exited even before the watch began is noticed too: the node has then been handed to
 * another parent (init or a subreaper), so its parent is no longer the pid the launcher passed.
 */
final class ParentWatch {

    private static final Logger LOG = LoggerFactory.getLogger(ParentWatch.class);

    private final ProcessHandle parent;
    private final CompletableFuture<ProcessHandle> exited;

    private ParentWatch(ProcessHandle parent) {
        this.parent = parent;
        this.exited = parent.onExit();
    }

    /**
     * Watches this process's parent; empty when it has exited already.
     *
     * @param expectedPid the pid of the process that started this one, or 0 for whichever parent it has now
     */
    static Optional<ParentWatch> of(long expectedPid) {
        return ProcessHandle.current().parent()
                .filter(parent -> expectedPid == 0 || parent.pid() == expectedPid)
                .filter(ProcessHandle::isAlive)
                .map(ParentWatch::new);
    }

    /** Stops the node when the parent exits, at once if it has already. */
    void stopOnExit(CohortNode node) {
        exited.thenRun(() -> {
            LOG.warn("The process that started this node ({}) has exited; stopping", parent.pid());
            node.stop();
        });
    }
}
