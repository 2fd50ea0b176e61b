package io.cohort.replication.engine;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asynchronous delivery: changes wait in bounded queues ("lanes") and sender threads hand them to
 * the transport. A session always maps to the same lane, so its changes leave in order; different
 * sessions spread over the lanes.
 *
 * <p>Memory is bounded by the configured capacity. When a lane is full the request thread waits
 * (back-pressure) for at most {@link #BACK_PRESSURE_WAIT}; after that the change is dropped,
 * counted, and abandoned so the transport sends the session in full next time. Hand-overs
 * ({@link #deliverWithoutWaiting}: a graceful stop, a redeploy) share one budget instead: each waits for room as long
 * as it takes, but none past the hand-over budget (the stop timeout) counted from the first hand-over; after that a
 * hand-over that finds its lane full is dropped at once. So a stop whose lanes are stuck (a database that does not
 * answer) is held at most the budget, not {@link #BACK_PRESSURE_WAIT} per session, and one whose lanes are slow but
 * moving hands its sessions over at their pace.
 *
 * <p>A transport may ask for {@link Batching}: a lane then hands it what is queued (and, when the lane
 * is busy, what arrives within the linger time) as one group, in queue order, instead of one dispatch
 * at a time. When it allows {@linkplain Batching#callerSends() the caller to send}, a change for a lane
 * with nothing queued or in flight (and, with {@link CallerSends#WHEN_QUIET}, whose changes come further
 * apart than the linger) is sent by the calling thread itself, under the lane's send lock,
 * which the lane's thread also holds while it sends: the change skips a thread hand-off, and the
 * changes of one session still leave in order.
 */
public final class AsyncSender implements ChangeDelivery {

    /** The longest a request waits for room in a full queue before the change is dropped. */
    public static final Duration BACK_PRESSURE_WAIT = Duration.ofMillis(250);
    /** The hand-over budget when none is given: the default graceful stop timeout. */
    public static final Duration DEFAULT_HAND_OVER_BUDGET = Duration.ofSeconds(30);

    private static final Logger LOG = LoggerFactory.getLogger(AsyncSender.class);

    private final List<Lane> lanes = new ArrayList<>();
    private final ReplicationMetrics metrics;
    private final Batching batching;
    /** Whether callers send only for lanes whose changes come further apart than the linger. */
    private final boolean quietOnly;
    private final AtomicBoolean dropLogged = new AtomicBoolean();
    private final long handOverBudgetNanos;
    /** When hand-overs stop waiting for room: {@code handOverBudget} after the first one; 0 before it. */
    private final AtomicLong handOverDeadline = new AtomicLong();
    private volatile boolean closed;

    /**
     * @param capacity how many changes may wait in total (split evenly over the lanes)
     * @param laneCount how many sender threads
     */
    public AsyncSender(String application, int capacity, int laneCount, ReplicationMetrics metrics) {
        this(application, capacity, laneCount, metrics, Batching.NONE);
    }

    /**
     * @param batching how a lane may group what is queued before sending it (see {@link Batching})
     */
    public AsyncSender(String application, int capacity, int laneCount, ReplicationMetrics metrics, Batching batching) {
        this(application, capacity, laneCount, metrics, batching, DEFAULT_HAND_OVER_BUDGET);
    }

    /**
     * @param handOverBudget how long hand-overs may wait for room in all, from the first one (the stop timeout)
     */
    public AsyncSender(String application, int capacity, int laneCount, ReplicationMetrics metrics, Batching batching,
            Duration handOverBudget) {
        this.handOverBudgetNanos = handOverBudget.toNanos();
        this.metrics = metrics;
        this.batching = batching;
        this.quietOnly = batching.callerSends() == CallerSends.WHEN_QUIET && batching.groups();
        int lanesWanted = Math.max(1, Math.min(laneCount, capacity));
        int perLane = Math.max(1, capacity / lanesWanted);
        for (int i = 0; i < lanesWanted; i++) {
            Lane lane = new Lane(perLane);
            Thread thread = new Thread(lane, "cohort-replication-" + application + "-" + i);
            thread.setDaemon(true);
            lane.thread = thread;
            lanes.add(lane);
            thread.start();
        }
    }

    @Override
    public void deliver(String sessionId, Dispatch dispatch) {
        deliver(sessionId, dispatch, false);
    }

    private void deliver(String sessionId, Dispatch dispatch, boolean handOver) {
        if (dispatch.isEmpty()) {
            return;
        }
        Lane lane = lanes.get(Math.floorMod(sessionId.hashCode(), lanes.size()));
        boolean often = quietOnly && lane.arrived(System.nanoTime());
        boolean idle = lane.pending.getAndIncrement() == 0;
        if (idle && batching.callerSends().allowed() && !often && !closed) {
            lane.sendNow(List.of(dispatch));
            return;
        }
        boolean queued = false;
        long wait = handOver ? handOverWaitNanos() : BACK_PRESSURE_WAIT.toNanos();
        try {
            queued = !closed && lane.queue.offer(dispatch, wait, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (queued) {
            return;
        }
        lane.done();
        if (!dispatch.abandon()) {
            return; // the transport sent it itself
        }
        metrics.dropped();
        if (dropLogged.compareAndSet(false, true)) {
            LOG.warn("{}: replication queue full for {} ({} of session {} dropped; the session is sent in full "
                    + "with its next change, if it has one; further drops are only counted in "
                    + "cohort.replication.async.dropped)",
                    metrics.application(), Duration.ofNanos(wait).truncatedTo(ChronoUnit.MILLIS),
                    handOver ? "hand-over" : "change", sessionId);
        }
    }

    /** As {@link #deliver}, but a full lane is waited for within the hand-overs' shared budget (see above). */
    @Override
    public void deliverWithoutWaiting(String sessionId, Dispatch dispatch) {
        deliver(sessionId, dispatch, true);
    }

    /** What is left of the hand-overs' budget, which the first hand-over starts. */
    private long handOverWaitNanos() {
        long now = System.nanoTime();
        handOverDeadline.compareAndSet(0, now + handOverBudgetNanos);
        return Math.max(0, handOverDeadline.get() - now);
    }

    @Override
    public boolean awaitQuiet(Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        for (Lane lane : lanes) {
            synchronized (lane) {
                while (lane.pending.get() > 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        return false;
                    }
                    TimeUnit.NANOSECONDS.timedWait(lane, left);
                }
            }
        }
        return true;
    }

    @Override
    public int queued() {
        int total = 0;
        for (Lane lane : lanes) {
            total += lane.queue.size();
        }
        return total;
    }

    @Override
    public void close() {
        closed = true;
        for (Lane lane : lanes) {
            lane.thread.interrupt();
            List<Dispatch> left = new ArrayList<>();
            lane.queue.drainTo(left);
            left.forEach(Dispatch::abandon);
        }
    }

    private final class Lane implements Runnable {
        final BlockingQueue<Dispatch> queue;
        /** Dispatches queued or being sent: the lane is idle at zero. */
        final AtomicInteger pending = new AtomicInteger();
        /** Held while sending, by the lane's thread or by a caller sending for an idle lane. */
        final ReentrantLock sending = new ReentrantLock();
        Thread thread;
        private long lastWoken = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
        /**
         * The longest gap between arrivals that {@link #arrivalGap} counts: one gap this long makes a busy lane
         * quiet again, and about twenty changes in quick succession make a quiet lane busy.
         */
        private final long lingerNanos = batching.linger().toNanos();
        private final long gapCap = 16 * lingerNanos;
        /**
         * The gap between this lane's arrivals, smoothed over about the last eight ({@link CallerSends#WHEN_QUIET}
         * only). Callers update it without a lock: a lost update only blurs an estimate.
         */
        private volatile long arrivalGap = gapCap;
        private volatile long lastArrival = System.nanoTime() - gapCap;

        Lane(int capacity) {
            this.queue = new ArrayBlockingQueue<>(capacity);
        }

        @Override
        public void run() {
            while (!closed) {
                List<Dispatch> group = new ArrayList<>();
                try {
                    group.add(queue.take());
                    collect(group);
                } catch (InterruptedException e) {
                    group.forEach(Dispatch::abandon);
                    group.forEach(d -> done());
                    return;
                }
                sendNow(group);
            }
        }

        /**
         * Counts a change arriving at {@code now}; returns whether, at the lane's smoothed rate, the next one is
         * due within the linger (so a group would form).
         */
        boolean arrived(long now) {
            // another caller may have stored a later arrival since this one read the clock: count that as no gap
            long gap = Math.max(0, Math.min(now - lastArrival, gapCap));
            lastArrival = now;
            long smoothed = arrivalGap + ((gap - arrivalGap) >> 3);
            arrivalGap = smoothed;
            return withinLinger(smoothed);
        }

        /** Whether, at the lane's smoothed rate, changes are coming within the linger ({@code WHEN_QUIET} only). */
        private boolean arrivingOften() {
            return quietOnly && withinLinger(arrivalGap);
        }

        private boolean withinLinger(long smoothedGap) {
            return smoothedGap < lingerNanos;
        }

        /** Sends a group under the send lock, then counts it done; never throws. */
        void sendNow(List<Dispatch> group) {
            sending.lock();
            try {
                if (group.size() == 1) {
                    group.get(0).send();
                } else {
                    batching.sender().accept(group);
                }
            } catch (RuntimeException e) {
                metrics.failed();
                LOG.warn("{}: sending a change failed: {}", metrics.application(), e.toString());
            } finally {
                sending.unlock();
                group.forEach(d -> done());
            }
        }

        /**
         * Adds what is queued and, if that leaves room and the lane is busy, sleeps out the linger time once and
         * adds what arrived meanwhile, up to the batch size. The lane sleeps rather than waits on the queue, so
         * the changes that arrive meanwhile do not each wake it: one wake-up per group, not one per change. It
         * counts as busy when it was woken less than one linger time before: then more changes are likely to
         * come within the linger, while a lane woken rarely sends at once instead of adding a sleep's wake-up. When
         * callers send for quiet lanes only, it also counts as busy while its changes arrive within the linger.
         */
        private void collect(List<Dispatch> group) throws InterruptedException {
            int max = batching.maxSize();
            if (max <= 1) {
                return;
            }
            long now = System.nanoTime();
            long sincePrevious = now - lastWoken;
            lastWoken = now;
            queue.drainTo(group, max - group.size());
            if (group.size() < max && lingerNanos > 0 && (sincePrevious < lingerNanos || arrivingOften())) {
                TimeUnit.NANOSECONDS.sleep(lingerNanos);
                queue.drainTo(group, max - group.size());
            }
        }

        void done() {
            if (pending.decrementAndGet() == 0) {
                synchronized (this) {
                    notifyAll();
                }
            }
        }
    }
}
