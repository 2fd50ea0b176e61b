package io.cohort.replication.engine;

import io.cohort.config.ReplicationSettings;
import io.cohort.session.SessionStoreContext;

/** Opens the {@link SessionTransport} of one application when its store starts. */
@FunctionalInterface
public interface TransportFactory {

    SessionTransport open(SessionStoreContext context, ReplicationSettings settings, ReplicationMetrics metrics)
            throws Exception;
}
