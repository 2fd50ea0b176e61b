package io.cohort.session.local;

import io.cohort.session.LiveSession;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import java.util.HashMap;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store of a node without replication. Sessions live in the node's memory only; nothing leaves
 * the node. When the application stops gracefully (undeploy, redeploy, node stop) its sessions are
 * kept in the node's {@link LocalSessionRepository}, so a redeployed version of the application
 * serves the same users' sessions. Attributes that cannot be serialized (possible only in
 * non-distributable applications) are left out of that copy.
 */
public final class LocalSessionStore implements SessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(LocalSessionStore.class);

    private final LocalSessionRepository repository;
    private volatile String application;

    public LocalSessionStore(LocalSessionRepository repository) {
        this.repository = repository;
    }

    @Override
    public void start(SessionStoreContext context) {
        this.application = context.application();
        repository.purgeExpired();
    }

    @Override
    public void stop() {
        // the repository outlives the application on purpose
    }

    @Override
    public void created(LiveSession session) {
        // memory only
    }

    @Override
    public void attributeChanged(LiveSession session, String name) {
        // memory only
    }

    @Override
    public void requestCompleted(LiveSession session) {
        // memory only
    }

    @Override
    public void shuttingDown(LiveSession session) {
        var values = new HashMap<String, byte[]>();
        for (String name : session.attributeNames()) {
            try {
                byte[] value = session.serializedAttribute(name);
                if (value != null) {
                    values.put(name, value);
                }
            } catch (IllegalStateException e) {
                LOG.debug("Session {}: attribute '{}' not kept across redeploy: {}", session.id(), name, e.getMessage());
            }
        }
        repository.put(application, new StoredSession(session.id(), session.version(), session.created(),
                session.lastAccessed(), session.maxInactiveMillis(), values));
    }

    /** The session is in the node's memory for the new version as soon as this returns. */
    @Override
    public Optional<CompletionStage<Void>> handOver(LiveSession session) {
        shuttingDown(session);
        return Optional.of(CompletableFuture.completedFuture(null));
    }

    @Override
    public void idChanged(String oldId, LiveSession session) {
        repository.remove(application, oldId);
    }

    @Override
    public void removed(String id, RemovalCause cause) {
        repository.remove(application, id);
    }

    @Override
    public Optional<StoredSession> load(String id) {
        return repository.take(application, id);
    }

    @Override
    public boolean exists(String id) {
        return repository.contains(application, id);
    }

    @Override
    public String toString() {
        return "LocalSessionStore[" + application + "]";
    }
}
