package io.cohort.bench.sut;

import java.net.URI;
import java.util.List;

/**
 * A running system the bench loads: the shop's address through each front door (balancer), the nodes to
 * sample, and (for a system the bench started itself) a way to kill a node. Implemented by the study's
 * own Cohort clusters, by a cluster someone else runs, and by the peer baselines
 * ({@code io.cohort.bench.peers}: Tomcat, Jetty JDBC, Cohort behind either front). {@link #close} stops
 * whatever the bench started and nothing else, whatever state it is in; it is idempotent.
 */
public interface SystemUnderTest extends AutoCloseable {

    /** The shop's context path on every system. */
    String SHOP_PATH = "/jpetstore";

    /** What is running, for logs and reports, e.g. {@code tomcat-delta-async x2 behind haproxy}. */
    String description();

    /** The shop's base address through each front door, e.g. {@code http://127.0.0.1:41234/jpetstore}. */
    List<URI> shops();

    /** The nodes to sample, in node order. */
    List<NodeProbe> nodes();

    /**
     * Kills one node with SIGKILL (no goodbye, no hand-over), waits until it is gone and returns its name.
     *
     * @throws UnsupportedOperationException for a system the bench did not start
     */
    String killOneNode() throws InterruptedException;

    /** The nodes the bench started that are no longer running (always empty for an existing cluster). */
    default List<String> exitedNodes() {
        return List.of();
    }

    @Override
    void close();
}
