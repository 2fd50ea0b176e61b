package io.cohort.balancer;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * The {@code request-timeout} of one attempt, counted on the member's time only: it runs from when the request is given
 * to HttpClient (waiting for a connection, sending, waiting for the answer) until the member's answer begins or the
 * attempt ends (an answer that streams for longer, a download or server-sent events, is not cut off), and
 * stands still while the balancer waits for more of the client's body ({@link #clientBodyAwaited}). A client that
 * uploads slowly but steadily may so take as long as its upload needs, bounded by {@code idle-timeout} between two
 * pieces (its connection's idle timeout then fails the read: 408) and by {@code max-request-body}, and the member still
 * gets the whole {@code request-timeout} for what is its own doing. HttpClient's total timeout cannot tell the two
 * apart: it would time out a progressing upload and count it against the member. When the member's time is up the
 * request to it is aborted with a {@link TimeoutException}, as that total timeout would.
 *
 * <p>The timer is lazy: waiting for the client does not cancel it; when it fires early because the member's clock
 * stood still meanwhile, it is set again for the rest. Thread-safe: the body's demand, the scheduler and the end of
 * the attempt run on different threads; nothing blocks or calls out under the lock.
 */
final class MemberDeadline {

    private final Scheduler scheduler;
    private final long budgetMillis;
    private final long budgetNanos;
    private final Request toMember;
    /** The member's time spent before {@link #runningSinceNanos}. */
    private long spentNanos;
    private long runningSinceNanos;
    private Scheduler.Task task;
    private boolean waitingForClient;
    private boolean started;
    private boolean over;

    MemberDeadline(Scheduler scheduler, long budgetMillis, Request toMember) {
        this.scheduler = scheduler;
        this.budgetMillis = budgetMillis;
        this.budgetNanos = TimeUnit.MILLISECONDS.toNanos(budgetMillis);
        this.toMember = toMember;
    }

    /** The request is about to be given to HttpClient: the member's time runs. Call before sending, once. */
    synchronized void start() {
        if (over || started) {
            return;
        }
        started = true;
        runningSinceNanos = System.nanoTime();
        task = scheduler.schedule(this::expire, budgetNanos, TimeUnit.NANOSECONDS);
    }

    /** The balancer waits for more of the client's body: the member's time stands still until it arrives. */
    synchronized void clientBodyAwaited() {
        if (over || waitingForClient) {
            return;
        }
        waitingForClient = true;
        if (started) {
            spentNanos += System.nanoTime() - runningSinceNanos;
        }
    }

    /** More of the client's body, or its end, was read: the member's time runs again. */
    synchronized void clientBodyArrived() {
        if (over || !waitingForClient) {
            return;
        }
        waitingForClient = false;
        if (started) {
            runningSinceNanos = System.nanoTime();
            if (task == null) {
                task = scheduler.schedule(this::expire, budgetNanos - spentNanos, TimeUnit.NANOSECONDS);
            }
        }
    }

    /**
     * Whether the balancer is waiting for more of the client's body: a timeout meanwhile (the connection to the member
     * idle because the client sends nothing) is the client's doing.
     */
    synchronized boolean waitingForClient() {
        return waitingForClient;
    }

    /** The attempt is over: the timer is cancelled. Idempotent. */
    void end() {
        Scheduler.Task pending;
        synchronized (this) {
            over = true;
            pending = task;
            task = null;
        }
        if (pending != null) {
            pending.cancel();
        }
    }

    private void expire() {
        synchronized (this) {
            task = null;
            if (over || waitingForClient) {
                return; // the client's body, when it arrives, sets the timer again for the member's time left
            }
            long spent = spentNanos + System.nanoTime() - runningSinceNanos;
            if (spent < budgetNanos) {
                task = scheduler.schedule(this::expire, budgetNanos - spent, TimeUnit.NANOSECONDS);
                return;
            }
            over = true;
        }
        toMember.abort(new TimeoutException("the member took longer than the request timeout of " + budgetMillis + " ms"));
    }
}
