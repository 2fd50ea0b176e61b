package io.cohort.session;

import io.cohort.cluster.Member;
import io.cohort.config.CohortConfig;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Plugs a store implementation into the node, found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/io.cohort.session.SessionStoreProvider}). The node asks each provider
 * on its class path whether it serves the node's {@code <cluster>} configuration; replication-off
 * nodes use the built-in local store and never consult providers.
 */
public interface SessionStoreProvider {

    /** Whether this provider implements the configured cluster protocol. */
    boolean supports(CohortConfig config);

    /**
     * Starts the node-wide service: joins the cluster, opens connections. Blocks until the service
     * can serve stores or fails with an exception that says what went wrong (the node then exits).
     *
     * @param config the node's validated configuration
     * @param self this node as a cluster member
     * @param meters the node's meter registry
     */
    SessionStoreFactory start(CohortConfig config, Member self, MeterRegistry meters) throws Exception;
}
