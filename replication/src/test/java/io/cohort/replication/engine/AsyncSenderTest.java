package io.cohort.replication.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class AsyncSenderTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReplicationMetrics metrics = new ReplicationMetrics(registry, "shop");

    /** A dispatch that records its sending, optionally blocking until released. */
    private static class Probe implements Dispatch {
        final int n;
        final List<Integer> log;
        final CountDownLatch gate;
        volatile boolean abandoned;
        /** Sends itself when abandoned, as a removal does. */
        boolean sentWhenAbandoned;

        Probe(int n, List<Integer> log, CountDownLatch gate) {
            this.n = n;
            this.log = log;
            this.gate = gate;
        }

        @Override
        public void send() {
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            log.add(n);
        }

        @Override
        public CompletableFuture<Void> applied() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public boolean abandon() {
            abandoned = true;
            return !sentWhenAbandoned;
        }

        @Override
        public boolean isEmpty() {
            return false;
        }
    }

    @Test
    void changesOfOneSessionLeaveInTheOrderTheyCame() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        try (AsyncSender sender = new AsyncSender("shop", 1000, 4, metrics)) {
            for (int i = 0; i < 500; i++) {
                sender.deliver("session-1", new Probe(i, log, new CountDownLatch(0)));
            }
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(log).hasSize(500).isSorted();
    }

    @Test
    void aFullQueueMakesTheCallerWaitThenDropsCountsAndAbandons() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        CountDownLatch blocked = new CountDownLatch(1);
        try (AsyncSender sender = new AsyncSender("shop", 2, 1, metrics)) {
            sender.deliver("s", new Probe(0, log, blocked)); // taken by the sender thread, which blocks
            AtomicInteger queued = new AtomicInteger();
            Probe dropped = null;
            for (int i = 1; i <= 4; i++) {
                Probe p = new Probe(i, log, new CountDownLatch(0));
                long start = System.nanoTime();
                sender.deliver("s", p);
                if (p.abandoned) {
                    dropped = p;
                    assertThat(Duration.ofNanos(System.nanoTime() - start))
                            .isGreaterThanOrEqualTo(AsyncSender.BACK_PRESSURE_WAIT.minusMillis(20));
                } else {
                    queued.incrementAndGet();
                }
            }
            assertThat(dropped).as("a change dropped after back-pressure").isNotNull();
            assertThat(queued.get()).isLessThanOrEqualTo(3);
            assertThat(registry.counter(ReplicationMetrics.DROPPED, "app", "shop").count()).isPositive();
            blocked.countDown();
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        }
    }
    @Test
    void handOversToAStuckLaneWaitTheBudgetInAllNotAWaitEach() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        CountDownLatch blocked = new CountDownLatch(1);
        try (AsyncSender sender = new AsyncSender("shop", 1, 1, metrics, Batching.NONE, Duration.ofMillis(300))) {
            sender.deliver("s", new Probe(0, log, blocked)); // taken by the sender thread, whose send is stuck
            sender.deliver("s", new Probe(1, log, new CountDownLatch(0))); // fills the queue
            List<Probe> handedOver = new java.util.ArrayList<>();
            long start = System.nanoTime();
            for (int i = 2; i < 22; i++) { // a graceful stop hands twenty sessions over
                Probe p = new Probe(i, log, new CountDownLatch(0));
                handedOver.add(p);
                sender.deliverWithoutWaiting("s", p);
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(handedOver).allMatch(p -> p.abandoned);
            assertThat(registry.counter(ReplicationMetrics.DROPPED, "app", "shop").count()).isEqualTo(20);
            assertThat(took).as("twenty hand-overs, each waiting " + AsyncSender.BACK_PRESSURE_WAIT + ", would take 5 s")
                    .isLessThan(Duration.ofMillis(2500));
            blocked.countDown();
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        }
        assertThat(log).containsExactly(0, 1);
    }

    @Test
    void handOversToASlowLaneWaitTheirTurnWithinTheBudget() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        try (AsyncSender sender = new AsyncSender("shop", 1, 1, metrics, Batching.NONE)) {
            List<Probe> handedOver = new java.util.ArrayList<>();
            for (int i = 0; i < 6; i++) { // each send takes longer than a request would wait for room
                Probe p = new SlowProbe(i, log, AsyncSender.BACK_PRESSURE_WAIT.plusMillis(150));
                handedOver.add(p);
                sender.deliverWithoutWaiting("s", p);
            }
            assertThat(sender.awaitQuiet(Duration.ofSeconds(8))).isTrue();
            assertThat(handedOver).noneMatch(p -> p.abandoned);
        }
        assertThat(log).containsExactly(0, 1, 2, 3, 4, 5);
    }

    /** A dispatch whose send takes {@code duration}. */
    private static final class SlowProbe extends Probe {
        private final Duration duration;

        SlowProbe(int n, List<Integer> log, Duration duration) {
            super(n, log, new CountDownLatch(0));
            this.duration = duration;
        }

        @Override
        public void send() {
            try {
                Thread.sleep(duration.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.send();
        }
    }

    @Test
    void anAbandonedDispatchTheTransportSendsItselfIsNotCountedAsDropped() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        CountDownLatch blocked = new CountDownLatch(1);
        try (AsyncSender sender = new AsyncSender("shop", 1, 1, metrics)) {
            sender.deliver("s", new Probe(0, log, blocked)); // taken by the sender thread, which blocks
            sender.deliver("s", new Probe(1, log, new CountDownLatch(0))); // fills the queue
            Probe removal = new Probe(2, log, new CountDownLatch(0));
            removal.sentWhenAbandoned = true;

            sender.deliver("s", removal);

            assertThat(removal.abandoned).isTrue();
            assertThat(registry.counter(ReplicationMetrics.DROPPED, "app", "shop").count()).isZero();
            blocked.countDown();
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        }
    }

    @Test
    void queuedChangesAreHandedOverInGroupsInTheirOrder() throws Exception {
        List<List<Integer>> groups = new CopyOnWriteArrayList<>();
        CountDownLatch gate = new CountDownLatch(1);
        List<Integer> log = new CopyOnWriteArrayList<>();
        Batching batching = new Batching(4, Duration.ofMillis(100), group -> {
            group.forEach(Dispatch::send);
            groups.add(group.stream().map(d -> ((Probe) d).n).toList());
        }, CallerSends.NEVER);
        AsyncSender sender = new AsyncSender("shop", 100, 1, metrics, batching);
        try {
            sender.deliver("s", new Probe(0, log, gate)); // the lane blocks on this one (alone or with others)
            for (int i = 1; i <= 6; i++) {
                sender.deliver("s", new Probe(i, log, new CountDownLatch(0)));
            }
            gate.countDown();
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        } finally {
            sender.close();
        }
        assertThat(log).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(groups).allSatisfy(group -> assertThat(group).hasSizeLessThanOrEqualTo(4));
        assertThat(groups.stream().mapToInt(List::size).sum()).as("dispatches sent in groups of more than one")
                .isGreaterThanOrEqualTo(6);
    }

    @Test
    void changesArrivingWhileTheLaneLingersJoinItsGroup() throws Exception {
        List<List<Integer>> groups = new CopyOnWriteArrayList<>();
        List<Integer> log = new CopyOnWriteArrayList<>();
        Batching batching = new Batching(64, Duration.ofSeconds(3), group -> {
            group.forEach(Dispatch::send);
            groups.add(group.stream().map(d -> ((Probe) d).n).toList());
        }, CallerSends.NEVER);
        AsyncSender sender = new AsyncSender("shop", 100, 1, metrics, batching);
        try {
            // the lane's first wake-up in a long while: it sends at once instead of lingering for three seconds
            sender.deliver("s", new Probe(0, log, new CountDownLatch(0)));
            assertThat(sender.awaitQuiet(Duration.ofMillis(2_500))).isTrue();
            // woken again within the linger: the lane is busy, so it lingers and the others join its group
            for (int i = 1; i <= 5; i++) {
                sender.deliver("s", new Probe(i, log, new CountDownLatch(0)));
            }
            assertThat(sender.awaitQuiet(Duration.ofSeconds(10))).isTrue();
        } finally {
            sender.close();
        }
        assertThat(log).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(groups).containsExactly(List.of(1, 2, 3, 4, 5)); // 0 went alone (a group of one is sent directly)
    }

    @Test
    void aCallerSendsForAnIdleLaneItselfAndLaterChangesWaitTheirTurn() throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        List<String> senders = new CopyOnWriteArrayList<>();
        Batching batching = new Batching(64, Duration.ofMillis(1), group -> group.forEach(Dispatch::send), CallerSends.WHEN_IDLE);
        AsyncSender sender = new AsyncSender("shop", 100, 1, metrics, batching);
        CountDownLatch inSend = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Dispatch first = new Probe(0, log, release) {
            @Override
            public void send() {
                senders.add(Thread.currentThread().getName());
                inSend.countDown();
                super.send();
            }
        };
        try {
            Thread caller = new Thread(() -> sender.deliver("s", first), "request-1");
            caller.start();
            assertThat(inSend.await(5, TimeUnit.SECONDS)).isTrue();
            // the lane is busy with the caller's send: these queue for the lane's thread, behind it
            for (int i = 1; i <= 3; i++) {
                sender.deliver("s", new Probe(i, log, new CountDownLatch(0)));
            }
            Thread.sleep(100); // room for a lane that ignored the send lock to overtake
            assertThat(log).as("nothing overtakes the caller's send").isEmpty();
            release.countDown();
            caller.join(5_000);
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        } finally {
            sender.close();
        }
        assertThat(senders).containsExactly("request-1");
        assertThat(log).containsExactly(0, 1, 2, 3);
    }

    @Test
    void whenQuietCallersSendUntilChangesComeWithinTheLingerThenTheLaneGroupsThemUntilAQuietSpell()
            throws Exception {
        List<Integer> log = new CopyOnWriteArrayList<>();
        List<String> senders = new CopyOnWriteArrayList<>();
        List<Integer> groupSizes = new CopyOnWriteArrayList<>();
        Duration linger = Duration.ofMillis(100);
        Batching batching = new Batching(64, linger, group -> {
            groupSizes.add(group.size());
            group.forEach(Dispatch::send);
        }, CallerSends.WHEN_QUIET);
        AsyncSender sender = new AsyncSender("shop", 100, 1, metrics, batching);
        try {
            for (int i = 0; i < 40; i++) { // far less than the linger apart
                sender.deliver("s", new NamedProbe(i, log, senders));
            }
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
            assertThat(senders.get(0)).as("the first change finds a quiet lane").isEqualTo(Thread.currentThread().getName());
            assertThat(senders.get(39)).as("by the fortieth the lane counts as busy").startsWith("cohort-replication-shop-");
            assertThat(groupSizes).as("the queued changes left in groups").anySatisfy(size -> assertThat(size).isGreaterThan(1));

            Thread.sleep(16 * linger.toMillis() + 100); // one gap this long makes the lane quiet again
            sender.deliver("s", new NamedProbe(40, log, senders));
            assertThat(sender.awaitQuiet(Duration.ofSeconds(5))).isTrue();
        } finally {
            sender.close();
        }
        assertThat(senders.get(40)).isEqualTo(Thread.currentThread().getName());
        assertThat(log).hasSize(41).isSorted();
    }

    /** A probe that also records which thread sent it. */
    private static final class NamedProbe extends Probe {
        private final List<String> senders;

        NamedProbe(int n, List<Integer> log, List<String> senders) {
            super(n, log, new CountDownLatch(0));
            this.senders = senders;
        }

        @Override
        public void send() {
            senders.add(Thread.currentThread().getName());
            super.send();
        }
    }
}
