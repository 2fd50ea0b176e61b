package io.cohort.replication.engine;

import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.session.LiveSession;
import io.cohort.session.RemovalCause;
import io.cohort.session.SessionStore;
import io.cohort.session.SessionStoreContext;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replication engine for one application: turns the node's session events into
 * {@link SessionChange}s at the moments the {@link ReplicationPolicy} names, and hands them to the
 * application's {@link SessionTransport} through the configured {@link ChangeDelivery}.
 *
 * <p>Snapshots are taken in the calling thread, under the session lock the node holds during every
 * event, so concurrent requests cannot change a value while it is serialized. Event methods never
 * throw: failures are logged and counted in {@code cohort.replication.failures}, and the session
 * stays intact at its owner.
 *
 * <p>{@link #stop()} after a graceful shutdown waits (at most the context's
 * {@link SessionStoreContext#stopTimeout() stopTimeout}) until the holders acknowledged the sessions
 * handed over by {@link #shuttingDown}.
 */
public final class ReplicatingSessionStore implements SessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(ReplicatingSessionStore.class);

    private final String application;
    private final TransportFactory transports;
    private final List<CompletableFuture<Void>> handedOver = new ArrayList<>();
    private final AtomicBoolean failureLogged = new AtomicBoolean();
    private volatile Running running;

    public ReplicatingSessionStore(String application, TransportFactory transports) {
        this.application = Objects.requireNonNull(application, "application");
        this.transports = Objects.requireNonNull(transports, "transports");
    }

    /** What exists while the store is started. */
    private record Running(ReplicationSettings settings, ReplicationPolicy policy, SessionTransport transport,
                           ChangeDelivery delivery, SessionSnapshot snapshots, ReplicationMetrics metrics,
                           Duration stopTimeout) {
    }

    @Override
    public void start(SessionStoreContext context) throws Exception {
        ReplicationSettings settings = context.replication().orElseThrow(() -> new IllegalStateException(
                application + " is bound to the replicating store without replication settings"));
        ReplicationMetrics metrics = new ReplicationMetrics(context.meters(), application);
        SessionTransport transport;
        try {
            transport = transports.open(context, settings, metrics);
        } catch (Exception e) {
            metrics.close();
            throw e;
        }
        ChangeDelivery delivery = settings.delivery() instanceof Delivery.Async async
                ? new AsyncSender(application, async.queueCapacity(), laneCount(), metrics, transport.batching(),
                        context.stopTimeout())
                : new SyncDelivery(((Delivery.Sync) settings.delivery()).timeout(), metrics);
        metrics.gauge(ReplicationMetrics.QUEUE_DEPTH, delivery::queued);
        running = new Running(settings, new ReplicationPolicy(settings.trigger(), settings.scope()), transport,
                delivery, new SessionSnapshot(metrics), metrics, context.stopTimeout());
        LOG.info("{}: replicating sessions ({}, {}, {}, write-quota {})", application, settings.trigger().xmlName(),
                settings.scope().xmlName(), settings.delivery() instanceof Delivery.Sync ? "synchronous" : "asynchronous",
                settings.writeQuota());
    }

    @Override
    public void stop() {
        Running r = running;
        if (r == null) {
            return;
        }
        running = null;
        try {
            awaitHandOver(r);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            r.delivery().close();
            r.transport().close();
            r.metrics().close();
        }
    }

    private void awaitHandOver(Running r) throws InterruptedException {
        long deadline = System.nanoTime() + r.stopTimeout().toNanos();
        boolean sent = r.delivery().awaitQuiet(r.stopTimeout());
        List<CompletableFuture<Void>> pending;
        synchronized (handedOver) {
            pending = new ArrayList<>(handedOver);
            handedOver.clear();
        }
        if (pending.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            LOG.info("{}: {} sessions handed over to their holders", application, pending.size());
        } catch (TimeoutException | ExecutionException e) {
            long done = pending.stream().filter(f -> f.isDone() && !f.isCompletedExceptionally()).count();
            LOG.warn("{}: only {} of {} sessions handed over were acknowledged (the others were missed or not acknowledged "
                    + "within {}){}", application, done, pending.size(), r.stopTimeout(),
                    sent ? "" : " (the send queue did not drain)");
        }
    }

    @Override
    public void created(LiveSession session) {
        Running r = running;
        if (r != null && r.policy().sendsOnCreate()) {
            guarded(r, session.id(), () -> replicate(r, session, false, false));
        }
    }

    @Override
    public void attributeChanged(LiveSession session, String name) {
        Running r = running;
        if (r != null && r.policy().sendsOnAttributeChange()) {
            guarded(r, session.id(), () -> replicate(r, session, false, false));
        }
    }

    /**
     * Sends the request's changes when the trigger asks for it; otherwise (nothing changed, or onShutdown) offers
     * the transport a touch: a copy made earlier (under onShutdown, one this node took over) must not be swept as
     * expired while the session is in use here.
     */
    @Override
    public void requestCompleted(LiveSession session) {
        Running r = running;
        if (r == null) {
            return;
        }
        guarded(r, session.id(), () -> {
            if (!r.policy().sendsOnRequestEnd() || !replicate(r, session, false, false)) {
                r.delivery().deliver(session.id(), r.transport().prepareTouch(session.id(), session.version(),
                        session.lastAccessed(), session.maxInactiveMillis()));
            }
        });
    }

    @Override
    public void shuttingDown(LiveSession session) {
        handOverNow(session, false);
    }

    /**
     * As {@link #shuttingDown}, but always with a full copy: earlier changes of the session may still wait in its
     * send lane (a stop waits for the lanes first, this does not), and the full copy, queued behind them, is
     * acknowledged only once they are written too, and holds them anyway. The stage is that acknowledgement, which
     * {@link #stop} also awaits.
     */
    @Override
    public Optional<CompletionStage<Void>> handOver(LiveSession session) {
        return Optional.of(handOverNow(session, true));
    }

    private CompletionStage<Void> handOverNow(LiveSession session, boolean full) {
        Running r = running;
        if (r == null) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            // a copy that missed a change would stay behind for good: no later request of this node repairs it
            boolean everything = full || r.policy().sendsEverything(!r.transport().tracks(session.id()), true)
                    || r.transport().copiesBehind(session.id(), session.version());
            Optional<SessionChange> change = r.snapshots().take(session, everything);
            // nothing changed since the copies were last written: nothing to wait for
            CompletionStage<Void> acknowledged = CompletableFuture.completedFuture(null);
            if (change.isPresent()) {
                Dispatch dispatch = r.transport().prepare(change.get(), true);
                synchronized (handedOver) {
                    handedOver.add(dispatch.applied());
                }
                acknowledged = dispatch.applied().minimalCompletionStage();
                r.delivery().deliverWithoutWaiting(session.id(), dispatch);
            }
            r.transport().forget(session.id());
            return acknowledged;
        } catch (RuntimeException e) {
            failure(r, session.id(), e);
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void idChanged(String oldId, LiveSession session) {
        Running r = running;
        if (r == null) {
            return;
        }
        guarded(r, session.id(), () -> {
            if (r.transport().idChanging(oldId, session.id())) {
                r.delivery().deliver(oldId, r.transport().prepareRemoval(oldId, RemovalCause.INVALIDATED));
            }
            if (r.policy().continuous()) {
                replicate(r, session, true, false);
            }
        });
    }

    @Override
    public void removed(String id, RemovalCause cause) {
        Running r = running;
        if (r != null) {
            guarded(r, id, () -> r.delivery().deliver(id, r.transport().prepareRemoval(id, cause)));
        }
    }

    @Override
    public Optional<StoredSession> load(String id) {
        return takeOver(id, SessionTransport::takeOver);
    }

    @Override
    public boolean exists(String id) {
        Running r = running;
        return r != null && r.transport().holdsCopy(id);
    }

    @Override
    public boolean copyStale(String id) {
        Running r = running;
        if (r == null) {
            return false;
        }
        try {
            return r.transport().copyStale(id);
        } catch (RuntimeException e) {
            failure(r, id, e);
            return false;
        }
    }

    @Override
    public List<String> copyHolders(String id) {
        Running r = running;
        return r == null ? List.of() : r.transport().copyHolders(id);
    }

    @Override
    public Optional<StoredSession> loadToEnd(String id) {
        return takeOver(id, SessionTransport::takeOverToEnd);
    }

    /** One of the transport's takeovers, bounded by the cache-miss delay; a transport that fails finds nothing. */
    private Optional<StoredSession> takeOver(String id, Takeover takeover) {
        Running r = running;
        if (r == null) {
            return Optional.empty();
        }
        try {
            return takeover.find(r.transport(), id, r.settings().cacheMissDelay());
        } catch (RuntimeException e) {
            failure(r, id, e);
            return Optional.empty();
        }
    }

    /** {@link SessionTransport#takeOver} or {@link SessionTransport#takeOverToEnd}. */
    @FunctionalInterface
    private interface Takeover {
        Optional<StoredSession> find(SessionTransport transport, String sessionId, Duration wait);
    }

    @Override
    public Set<String> expiredOrphans(Instant now) {
        Running r = running;
        return r == null ? Set.of() : r.transport().expiredOrphans(now);
    }

    /** Sends what the scope asks for; whether a change was produced. */
    private boolean replicate(Running r, LiveSession session, boolean forceEverything, boolean acknowledged) {
        boolean everything = forceEverything || r.policy().sendsEverything(!r.transport().tracks(session.id()), false);
        Optional<SessionChange> change = r.snapshots().take(session, everything);
        if (change.isEmpty()) {
            return false;
        }
        Dispatch dispatch = r.transport().prepare(change.get(), acknowledged || r.settings().delivery() instanceof Delivery.Sync);
        r.delivery().deliver(session.id(), dispatch);
        return true;
    }

    private void guarded(Running r, String id, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            failure(r, id, e);
        }
    }

    private void failure(Running r, String id, RuntimeException e) {
        r.metrics().failed();
        if (failureLogged.compareAndSet(false, true)) {
            LOG.warn("{}: replicating session {} failed (the session stays intact here; further failures are only "
                    + "counted in cohort.replication.failures)", application, id, e);
        } else {
            LOG.debug("{}: replicating session {} failed", application, id, e);
        }
    }

    private static int laneCount() {
        return Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    }

    @Override
    public String toString() {
        return "ReplicatingSessionStore[" + application + "]";
    }
}
