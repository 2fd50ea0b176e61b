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
 * acknowledged having applied it, at most {@code timeout}. A miss is counted and logged once; the
 * request then carries on (the holders catch up through version-gap detection).
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
            metrics.syncTimedOut();
            if (timeoutLogged.compareAndSet(false, true)) {
                LOG.warn("{}: holders of session {} did not acknowledge within {}; the request continues "
                        + "(further timeouts are only counted in cohort.replication.sync.timeouts)",
                        metrics.application(), sessionId, timeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            metrics.failed();
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
