package io.cohort.replication;

import io.cohort.cluster.Member;
import io.cohort.config.ClusterConfig;
import io.cohort.config.CohortConfig;
import io.cohort.config.DatabaseProtocol;
import io.cohort.config.MulticastProtocol;
import io.cohort.config.PeerProtocol;
import io.cohort.replication.database.DatabaseOptions;
import io.cohort.replication.database.DatabaseReplicationService;
import io.cohort.replication.group.GroupOptions;
import io.cohort.replication.group.GroupReplicationService;
import io.cohort.session.SessionStoreFactory;
import io.cohort.session.SessionStoreProvider;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Cohort's session replication, found by the node through {@link java.util.ServiceLoader}. Serves
 * an enabled {@code <cluster>} whose protocol is {@code <peer>} (JGroups over TCP),
 * {@code <multicast>} (JGroups over UDP multicast) or {@code <database>} (JDBC).
 */
public final class ReplicationProvider implements SessionStoreProvider {

    @Override
    public boolean supports(CohortConfig config) {
        return config.cluster().filter(ClusterConfig::enabled)
                .map(cluster -> cluster.protocol() instanceof PeerProtocol || cluster.protocol() instanceof MulticastProtocol
                        || cluster.protocol() instanceof DatabaseProtocol)
                .orElse(false);
    }

    @Override
    public SessionStoreFactory start(CohortConfig config, Member self, MeterRegistry meters) throws Exception {
        ClusterConfig cluster = config.cluster().orElseThrow(() -> new IllegalArgumentException("no <cluster> configured"));
        if (cluster.protocol() instanceof DatabaseProtocol) {
            return DatabaseReplicationService.start(cluster, self, DatabaseOptions.DEFAULT);
        }
        return GroupReplicationService.start(cluster, self, meters, GroupOptions.DEFAULT);
    }
}
