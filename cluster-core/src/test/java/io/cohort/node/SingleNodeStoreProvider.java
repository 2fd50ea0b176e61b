package io.cohort.node;

import io.cohort.cluster.ClusterView;
import io.cohort.cluster.Member;
import io.cohort.cluster.SingleNodeView;
import io.cohort.config.CohortConfig;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreFactory;
import io.cohort.session.SessionStoreProvider;
import io.cohort.session.StoredSession;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The common part of the test doubles of a replicating store: the provider serves every configuration
 * with a cluster, sees only its own node and makes one store per application with {@link #newStore};
 * all its stores share one in-memory map of session copies, read and removed by {@link MapStore}.
 */
abstract class SingleNodeStoreProvider implements SessionStoreProvider {

    /** The session copies of every store of this provider, by application and session id. */
    final Map<String, StoredSession> copies = new ConcurrentHashMap<>();
    /** Every {@code load} any store was asked for, as {@code application/id}, in order. */
    final List<String> loads = new CopyOnWriteArrayList<>();
    /** Loads of these {@code application/id} keys wait until the latch opens (at most 30 s): a slow lookup. */
    final Map<String, CountDownLatch> heldLoads = new ConcurrentHashMap<>();
    /** Request completions of these {@code application/id} keys wait until the latch opens (at most 30 s): a slow store. */
    final Map<String, CountDownLatch> heldCompletions = new ConcurrentHashMap<>();

    /** A store that reads and removes its application's copies in {@link #copies}; subclasses decide when to write. */
    abstract class MapStore implements SessionStore {
        private final String application;

        MapStore(String application) {
            this.application = application;
        }

        final String key(String id) {
            return application + "/" + id;
        }

        @Override
        public void removed(String id, RemovalCause cause) {
            copies.remove(key(id));
        }

        @Override
        public Optional<StoredSession> load(String id) {
            loads.add(key(id));
            await(heldLoads.get(key(id)));
            return Optional.ofNullable(copies.get(key(id)));
        }

        /** Waits while a test holds request completions of this session ({@link #heldCompletions}). */
        final void awaitCompletionHold(String id) {
            await(heldCompletions.get(key(id)));
        }

        private static void await(CountDownLatch held) {
            if (held != null) {
                try {
                    held.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public boolean exists(String id) {
            return copies.containsKey(key(id));
        }
    }

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
