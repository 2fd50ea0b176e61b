package io.cohort.session;

import io.cohort.cluster.ClusterView;

/**
 * A node-wide service that creates one {@link SessionStore} per deployed application and owns
 * whatever the stores share (a cluster channel, a connection pool, a repository in memory).
 *
 * <p>Created once when the node starts and closed after every application has stopped. Thread-safe:
 * applications are deployed and undeployed concurrently with requests.
 */
public interface SessionStoreFactory extends AutoCloseable {

    /** A new, not yet started store for one application. */
    SessionStore newStore(String application);

    /** The cluster members as this service sees them; for a local-only node just the node itself. */
    ClusterView clusterView();

    /** Releases shared resources; bounded in time. */
    @Override
    void close();
}
