package io.cohort.bench.study.run;

import java.net.URI;
import java.util.List;

/**
 * The cluster an experiment loads: the shop's address through each balancer, the nodes to sample, and (for a
 * cluster the bench started itself) a way to kill a node. {@link #close} stops whatever the bench started and
 * nothing else.
 */
public interface SystemUnderTest extends AutoCloseable {

    /** The shop's base address through each balancer, e.g. {@code http://127.0.0.1:41234/jpetstore}. */
    List<URI> shops();

    /** The nodes, in node order. */
    List<NodeProbe> nodes();

    /**
     * Kills a node with SIGKILL (no goodbye, no hand-over) and returns its name.
     *
     * @throws UnsupportedOperationException for a cluster the bench did not start
     */
    String killOneNode() throws InterruptedException;

    /** Whether every node the bench started is still running (always true for an existing cluster). */
    default List<String> exitedNodes() {
        return List.of();
    }

    @Override
    void close();
}
