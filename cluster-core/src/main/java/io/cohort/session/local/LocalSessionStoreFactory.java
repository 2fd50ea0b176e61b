package io.cohort.session.local;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import io.cohort.cluster.SingleNodeView;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Stores for a node without replication; its cluster view is the node alone. The sessions it keeps for stopped
 * applications ({@link #repository()}) are purged of expired ones every {@link #PURGE_INTERVAL}, so those of an
 * application that was undeployed, or is not coming back, do not stay in memory until the node stops.
 */
public final class LocalSessionStoreFactory implements SessionStoreFactory {

    /** How often the repository drops expired sessions, whatever the applications do. */
    static final Duration PURGE_INTERVAL = Duration.ofMinutes(1);

    private final LocalSessionRepository repository;
    private final ClusterView view;
    private final ScheduledExecutorService purger = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread thread = new Thread(r, "cohort-local-sessions-purge");
        thread.setDaemon(true);
        return thread;
    });

    public LocalSessionStoreFactory(Member self) {
        this(self, Clock.systemUTC(), PURGE_INTERVAL);
    }

    LocalSessionStoreFactory(Member self, Clock clock, Duration purgeInterval) {
        this.repository = new LocalSessionRepository(clock);
        this.view = new SingleNodeView(self);
        purger.scheduleWithFixedDelay(repository::purgeExpired, purgeInterval.toMillis(), purgeInterval.toMillis(),
                TimeUnit.MILLISECONDS);
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

    /** Stops purging; the sessions kept go with the node. */
    @Override
    public void close() {
        purger.shutdownNow();
    }
}
