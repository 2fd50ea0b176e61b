package io.cohort.node;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import io.cohort.cluster.SingleNodeView;
import io.cohort.config.CohortConfig;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreFactory;
import io.cohort.session.SessionStoreProvider;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * The provider part of the test doubles of a replicating store: serves every configuration with a
 * cluster, sees only its own node, and makes one store per application with {@link #newStore}.
 */
abstract class SingleNodeStoreProvider implements SessionStoreProvider {

    /** The store of one application (one per deployed version). */
    abstract SessionStore newStore(String application);

    @Override
    public boolean supports(CohortConfig config) {
        return config.cluster().isPresent();
    }

    @Override
    public SessionStoreFactory start(CohortConfig config, Member self, MeterRegistry meters) {
        ClusterView view = new SingleNodeView(self);
        return new SessionStoreFactory() {
            @Override
            public SessionStore newStore(String application) {
                return SingleNodeStoreProvider.this.newStore(application);
            }

            @Override
            public ClusterView clusterView() {
                return view;
            }

            @Override
            public void close() {
            }
        };
    }
}
