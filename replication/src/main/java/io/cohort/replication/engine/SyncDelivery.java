package io.cohort.replication.engine;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Synchronous delivery: the request thread sends the change and waits until every holder
 * acknowledged having applied it, at most {@code timeout}. A timeout is counted and logged once; a
 * change a holder is known to have missed was counted by the transport. Either way the request then
 * carries on (the holders catch up with a full copy or through version-gap detection), and only
 * acknowledged changes are timed in {@code cohort.replication.sync.latency}.
 *
 * <p>A hand-over ({@link #deliverWithoutWaiting}: a graceful stop, a redeploy) is sent on a thread of the
 * application's own, one after another in the order handed in, so that the stopping thread is not held by it: a
 * transport whose send blocks (the database protocol writes in the sending thread, each write up to the synchronous
 * timeout) would otherwise hold a stop for that timeout per session, however short {@code stopTimeout}. The stop waits
 * for them within its {@code stopTimeout} ({@link #awaitQuiet}); {@link #close} abandons those not sent by then.
 */
public final class SyncDelivery implements ChangeDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(SyncDelivery.class);

    private final Duration timeout;
    private final ReplicationMetrics metrics;
    private final AtomicBoolean timeoutLogged = new AtomicBoolean();
    /** Sends hand-overs in order; started at the first one. Guarded by {@code this}. */
    private ThreadPoolExecutor handOvers;
    private boolean closed;

    public SyncDelivery(Duration timeout, ReplicationMetrics metrics) {
        this.timeout = timeout;
        this.metrics = metrics;
    }

    @Override
    public void deliver(String sessionId, Dispatch dispatch) {
        if (dispatch.isEmpty()) {
            return;
        }
        long start = System.nanoTime();
        dispatch.send();
        try {
            dispatch.applied().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            metrics.syncLatency().record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            dispatch.applied().cancel(false); // nothing waits for it any more: the transport may forget it
            metrics.syncTimedOut();
            if (timeoutLogged.compareAndSet(false, true)) {
                LOG.warn("{}: holders of session {} did not acknowledge within {}; the request continues "
                        + "(further timeouts are only counted in cohort.replication.sync.timeouts)",
                        metrics.application(), sessionId, timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            // a holder missed the change (ChangeNotAppliedException): the transport counted the failure and sends
            // the session in full next time; no latency is recorded for a change that did not arrive
        }
    }

    /** Queues the hand-over for the application's hand-over thread; after {@link #close} it is abandoned. */
    @Override
    public void deliverWithoutWaiting(String sessionId, Dispatch dispatch) {
        if (dispatch.isEmpty()) {
            return;
        }
        synchronized (this) {
            if (!closed) {
                if (handOvers == null) {
                    handOvers = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), task -> {
                        Thread thread = new Thread(task, "cohort-" + metrics.application() + "-hand-over");
                        thread.setDaemon(true);
                        return thread;
                    });
                }
                handOvers.execute(new HandOver(dispatch));
                return;
            }
        }
        dispatch.abandon();
    }

    /** Waits until every hand-over handed in so far was sent, at most {@code bound}; whether they were. */
    @Override
    public boolean awaitQuiet(Duration bound) throws InterruptedException {
        Future<?> marker;
        synchronized (this) {
            if (handOvers == null || closed) {
                return true;
            }
            marker = handOvers.submit(() -> { }); // runs after everything queued before it: one thread, in order
        }
        try {
            marker.get(bound.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return true;
        }
    }

    @Override
    public synchronized int queued() {
        return handOvers == null ? 0 : handOvers.getQueue().size();
    }

    /** Stops the hand-over thread; hand-overs not sent yet are abandoned (the transport counts them as missed). */
    @Override
    public void close() {
        List<Runnable> left;
        synchronized (this) {
            closed = true;
            if (handOvers == null) {
                return;
            }
            left = handOvers.shutdownNow();
        }
        for (Runnable task : left) {
            if (task instanceof HandOver handOver) {
                handOver.dispatch.abandon();
            }
        }
    }

    /** One hand-over's send, recognisable among the tasks a stopped executor returns. */
    private record HandOver(Dispatch dispatch) implements Runnable {
        @Override
        public void run() {
            dispatch.send();
        }
    }
}
