package io.cohort.session.local;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.SingleNodeView;
import io.cohort.cluster.Member;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreFactory;
import java.time.Clock;

/** Stores for a node without replication; its cluster view is the node alone. */
public final class LocalSessionStoreFactory implements SessionStoreFactory {

    private final LocalSessionRepository repository = new LocalSessionRepository(Clock.systemUTC());
    private final ClusterView view;

    public LocalSessionStoreFactory(Member self) {
        this.view = new SingleNodeView(self);
    }

    @Override
    public SessionStore newStore(String application) {
        return new LocalSessionStore(repository);
    }

    @Override
    public ClusterView clusterView() {
        return view;
    }

    /** Sessions kept for stopped applications. */
    public LocalSessionRepository repository() {
        return repository;
    }

    @Override
    public void close() {
        // memory only
    }
}
