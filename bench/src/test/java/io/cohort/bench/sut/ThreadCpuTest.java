package io.cohort.bench.sut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    private static final long SELF = ProcessHandle.current().pid();
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    @Test
    void threadNamesAsLinuxKeepsThemTellWhatTheThreadsWorkOn() {
        assertThat(NodeThreads.of("cohort-n1-42")).isEqualTo(NodeThreads.REQUESTS);
        assertThat(NodeThreads.of("cohort-n1-17-ac")).isEqualTo(NodeThreads.REQUESTS);
        assertThat(NodeThreads.of("cohort-replicat")).isEqualTo(NodeThreads.REPLICATION);
        assertThat(NodeThreads.of("cohort-membersh")).isEqualTo(NodeThreads.REPLICATION);
        assertThat(NodeThreads.of("Connection.Rece")).isEqualTo(NodeThreads.REPLICATION);
        assertThat(NodeThreads.of("pd-bundler-1,<C")).isEqualTo(NodeThreads.REPLICATION);
        assertThat(NodeThreads.of("Timer runner-2,")).isEqualTo(NodeThreads.REPLICATION);
        assertThat(NodeThreads.of("GC Thread#1")).isEqualTo(NodeThreads.GC);
        assertThat(NodeThreads.of("G1 Refine#0")).isEqualTo(NodeThreads.GC);
        assertThat(NodeThreads.of("VM Thread")).isEqualTo(NodeThreads.GC);
        assertThat(NodeThreads.of("C2 CompilerThre")).isEqualTo(NodeThreads.JIT);
        assertThat(NodeThreads.of("Scheduler-18941")).isEqualTo(NodeThreads.OTHER);
    }

    @Test
    void aBusyThreadsTimeGoesToItsKindAndAnEndedThreadsTimeToEnded() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "Linux /proc");
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread replication = new Thread(() -> spinUntil(running, finish), "cohort-replication-shop-0");
        replication.start();
        running.await();
        ThreadCpu before = ThreadCpu.of(SELF).orElseThrow();
        long replicationCpuBefore = THREADS.getThreadCpuTime(replication.getId());
        Thread ended = new Thread(() -> spinCpu(300), "short-lived");
        ended.start();
        ended.join();
        // join returns once Java is done with the thread; the kernel reaps its task (and adds its time to the
        // process's) a moment later, so until then it still counts as a live thread
        awaitTaskGone("short-lived");
        // the replication thread runs on meanwhile; on a busy machine its CPU time, not the wall time, is awaited
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (THREADS.getThreadCpuTime(replication.getId()) - replicationCpuBefore < 300_000_000L
                && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        ThreadCpu after = ThreadCpu.of(SELF).orElseThrow();
        finish.countDown();
        replication.join();

        Map<NodeThreads, Double> spent = after.since(before);
        // on 10 ms ticks, and on a machine shared with other work: well below the wall time each spun
        assertThat(spent.get(NodeThreads.REPLICATION)).isGreaterThan(0.05);
        assertThat(spent.get(NodeThreads.ENDED)).isGreaterThan(0.05);
        double sum = spent.values().stream().mapToDouble(Double::doubleValue).sum();
        // each thread's ticks and the process's are rounded apart: a few ticks either way
        assertThat(sum).isCloseTo(after.processSeconds() - before.processSeconds(), within(0.1));
    }

    @Test
    void aProcessThatIsGoneHasNoReading() {
        assertThat(ThreadCpu.of(Long.MAX_VALUE)).isEmpty();
    }

    private static void spinUntil(CountDownLatch running, CountDownLatch finish) {
        running.countDown();
        while (finish.getCount() > 0) {
            spin(10);
        }
    }

    private static void awaitTaskGone(String name) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline && taskNamed(name)) {
            Thread.sleep(10);
        }
        assertThat(taskNamed(name)).as("the ended thread's task is gone").isFalse();
    }

    private static boolean taskNamed(String name) throws java.io.IOException {
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            return tasks.anyMatch(task -> {
                try {
                    return Files.readString(task.resolve("comm")).trim().equals(name);
                } catch (java.io.IOException gone) {
                    return false;
                }
            });
        }
    }

    /** Burns {@code millis} of this thread's CPU time, however long a busy machine makes that take. */
    private static void spinCpu(long millis) {
        long end = THREADS.getCurrentThreadCpuTime() + millis * 1_000_000;
        while (THREADS.getCurrentThreadCpuTime() < end) {
            spin(1);
        }
    }

    /** Burns CPU for about {@code millis} of wall time. */
    private static void spin(long millis) {
        long end = System.nanoTime() + millis * 1_000_000;
        long x = 0;
        while (System.nanoTime() < end) {
            x += x * 31 + 7;
        }
        if (x == 42) {
            System.out.print("");
        }
    }
}
