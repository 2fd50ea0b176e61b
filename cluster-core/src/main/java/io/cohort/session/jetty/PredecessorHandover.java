package io.cohort.session.jetty;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * When the version of an application that a redeploy replaced has handed its sessions to the
 * session store. Between the swap and that moment the old version finishes its in-flight requests
 * and still holds its users' sessions; a request that reaches the new version for one of them
 * waits here before the new version loads it from the store, instead of missing it and starting the
 * user on a new session (or, with replication, taking it over from the copies while the old version
 * still owns it).
 *
 * <p>The wait is bounded: a predecessor that does not finish in time (its stop is itself bounded by
 * the node's {@code graceful-stop}, once for the drain and once for the hand-over) no longer holds
 * requests up. Thread-safe.
 */
public final class PredecessorHandover {

    private final CompletableFuture<Void> handedOver;
    private final Duration bound;

    private PredecessorHandover(CompletableFuture<Void> handedOver, Duration bound) {
        this.handedOver = handedOver;
        this.bound = bound;
    }

    /** A first deployment: no predecessor, nothing to wait for. */
    public static PredecessorHandover none() {
        return new PredecessorHandover(CompletableFuture.completedFuture(null), Duration.ZERO);
    }

    /** A redeploy whose predecessor is still serving; {@link #handedOver()} ends the wait. */
    public static PredecessorHandover pending(Duration bound) {
        return new PredecessorHandover(new CompletableFuture<>(), bound);
    }

    /** The predecessor has stopped (or failed to): its sessions are in the store, loads need not wait. */
    public void handedOver() {
        handedOver.complete(null);
    }

    /**
     * Waits until the predecessor has handed its sessions over, at most the bound.
     *
     * @return whether it has (false: the bound passed, or the thread was interrupted, with its flag set again)
     */
    public boolean await() {
        if (handedOver.isDone()) {
            return true;
        }
        try {
            handedOver.get(bound.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        }
    }
}
