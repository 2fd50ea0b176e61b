package io.cohort.replication.engine;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
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
 */
public final class SyncDelivery implements ChangeDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(SyncDelivery.class);

    private final Duration timeout;
    private final ReplicationMetrics metrics;
    private final AtomicBoolean timeoutLogged = new AtomicBoolean();

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

    @Override
    public void deliverWithoutWaiting(String sessionId, Dispatch dispatch) {
        dispatch.send();
    }

    @Override
    public boolean awaitQuiet(Duration bound) {
        return true;
    }

    @Override
    public int queued() {
        return 0;
    }

    @Override
    public void close() {
    }
}
