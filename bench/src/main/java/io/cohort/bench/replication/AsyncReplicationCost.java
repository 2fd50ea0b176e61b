package io.cohort.bench.replication;

import io.cohort.bench.sut.ContextSwitches;
import io.cohort.config.Delivery;
import io.cohort.config.SecurityConfig;
import io.cohort.config.Secret;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.session.contract.TestSession;
import java.io.Serializable;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What asynchronous replication costs in CPU, per change, between two members in this JVM over JGroups TCP on
 * loopback, authenticated and encrypted as a local cluster is: request threads end requests that changed the
 * shop's attributes (a search and the cart, in turn) at a fixed offered rate, the owner's lanes send them, the
 * holder applies them. The process's CPU time over the window, divided by the changes the holder applied, is
 * everything replication costs on both sides (serializing, framing, sealing, the JGroups stack, encryption,
 * decoding, applying), as the two nodes of a 2-node cluster pay it between them.
 *
 * @param batchSize the {@code <peer batch-size>} (1: every change in a message of its own)
 * @param stackTuning values for the JGroups stack's placeholders, e.g. {@code cohort.message_processing_policy}
 * @param tls       whether the members connect over TLS ({@code <security tls="true">}) instead of encrypting payloads
 * @param rate      changes offered per second, spread over the request threads
 * @param threads   request threads
 * @param sessions  sessions, spread over the threads
 */
public record AsyncReplicationCost(int batchSize, Map<String, String> stackTuning, boolean tls, int rate, int threads,
                                   int sessions) {

    /** What one measurement window saw. */
    public record Result(long changes, double messages, double cpuSeconds, double seconds,
                         double bytesSent, long contextSwitches) {

        public double cpuMicrosPerChange() {
            return cpuSeconds * 1e6 / changes;
        }

        /** The process's context switches per change: the thread hand-offs a change takes (and the pacing's). */
        public double switchesPerChange() {
            return (double) contextSwitches / changes;
        }

        public double changesPerMessage() {
            return messages == 0 ? 0 : changes / messages;
        }

        public double changesPerSecond() {
            return changes / seconds;
        }
    }

    private static final Secret SECRET = new Secret("bench-secret-0123456789abcdef", "bench");

    /** Starts a pair, runs the load for {@code warmup}, then measures for {@code window}, and stops the pair. */
    public Result measure(Duration warmup, Duration window) throws Exception {
        try (LoopbackPair pair = new LoopbackPair(Delivery.Async.DEFAULT, batchSize,
                Optional.of(new SecurityConfig(SECRET, true, tls)), stackTuning)) {
            List<List<TestSession>> perThread = newSessions();
            Serializable[][] values = {
                {ShopChange.SEARCH.value(0), ShopChange.SEARCH.value(1)},
                {ShopChange.ADD_TO_CART.value(0), ShopChange.ADD_TO_CART.value(1)}};
            run(pair, perThread, values, warmup);
            awaitHolder(pair);
            double changes0 = pair.holderReceived(ReplicationMetrics.CHANGES);
            double messages0 = pair.ownerCounter(ReplicationMetrics.MESSAGES);
            double bytes0 = pair.ownerCounter(ReplicationMetrics.BYTES);
            long cpu0 = processCpuNanos();
            Optional<ContextSwitches> switches0 = ContextSwitches.ofThisProcess();
            long start = System.nanoTime();
            run(pair, perThread, values, window);
            awaitHolder(pair);
            long cpu = processCpuNanos() - cpu0;
            long switches = switches0.flatMap(then -> ContextSwitches.ofThisProcess().map(now -> now.since(then)))
                    .orElse(0L);
            double seconds = (System.nanoTime() - start) / 1e9;
            long changes = Math.round(pair.holderReceived(ReplicationMetrics.CHANGES) - changes0);
            return new Result(changes, pair.ownerCounter(ReplicationMetrics.MESSAGES) - messages0, cpu / 1e9,
                    seconds, pair.ownerCounter(ReplicationMetrics.BYTES) - bytes0, switches);
        }
    }

    private List<List<TestSession>> newSessions() {
        List<List<TestSession>> perThread = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            perThread.add(new ArrayList<>());
        }
        for (int i = 0; i < sessions; i++) {
            String id = String.format("bench%027d", i);
            perThread.get(i % threads).add(HotPath.typicalSession(new TestSession(id, HotPath.VALUES)));
        }
        return perThread;
    }

    /**
     * The request threads, each offering {@code rate / threads} changes a second on its sessions in turn, with
     * exponentially distributed gaps (independent users: a Poisson stream), so the threads do not fire in step and
     * bursts are as likely as in a shop's traffic, no likelier.
     */
    private void run(LoopbackPair pair, List<List<TestSession>> perThread, Serializable[][] values, Duration length)
            throws InterruptedException {
        double meanGapNanos = 1e9 * threads / rate;
        long end = System.nanoTime() + length.toNanos();
        AtomicLong failures = new AtomicLong();
        List<Thread> workers = new ArrayList<>();
        for (List<TestSession> mine : perThread) {
            long seed = workers.size() + 31L * length.toMillis();
            Thread worker = new Thread(() -> {
                SplittableRandom random = new SplittableRandom(seed);
                long next = System.nanoTime() + gap(random, meanGapNanos);
                int i = 0;
                while (next < end) {
                    LockSupport.parkNanos(next - System.nanoTime());
                    TestSession session = mine.get(i % mine.size());
                    Serializable[] choice = values[i & 1];
                    session.set(i % 2 == 0 ? ShopChange.SEARCH.attribute() : ShopChange.ADD_TO_CART.attribute(),
                            choice[(i >> 1) & 1]);
                    try {
                        synchronized (session) {
                            pair.store().requestCompleted(session);
                        }
                    } catch (RuntimeException e) {
                        failures.incrementAndGet();
                    }
                    i++;
                    next += gap(random, meanGapNanos);
                }
            }, "bench-request-" + workers.size());
            workers.add(worker);
            worker.start();
        }
        for (Thread worker : workers) {
            worker.join();
        }
        if (failures.get() > 0) {
            throw new IllegalStateException(failures.get() + " requests failed to replicate");
        }
    }

    private static long gap(SplittableRandom random, double meanNanos) {
        return Math.round(-meanNanos * Math.log(1 - random.nextDouble()));
    }

    /** Waits until the holder has applied every change the owner sent. */
    private static void awaitHolder(LoopbackPair pair) throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (pair.holderReceived(ReplicationMetrics.CHANGES) < pair.ownerCounter(ReplicationMetrics.CHANGES)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("the holder did not catch up within 30 s");
            }
            Thread.sleep(10);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }
}
