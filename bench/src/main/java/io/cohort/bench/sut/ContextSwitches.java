package io.cohort.bench.sut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * How often each live thread of a process has been switched off a CPU so far, from Linux's
 * {@code /proc/<pid>/task/<tid>/status} ({@code voluntary_ctxt_switches}: the thread blocked or parked, e.g. to
 * wait for a hand-off; {@code nonvoluntary_ctxt_switches}: it was preempted). Every thread hand-off costs at least
 * one voluntary switch, so the count per unit of work tells how many hand-offs it takes, independently of how fast
 * the machine happens to be. {@link #since} turns two readings into the switches in between.
 *
 * @param byThread per live thread id: its switches so far
 */
public record ContextSwitches(Map<Long, Long> byThread) {

    private static final String VOLUNTARY = "voluntary_ctxt_switches:";
    private static final String NONVOLUNTARY = "nonvoluntary_ctxt_switches:";

    public ContextSwitches {
        byThread = Map.copyOf(byThread);
    }

    /** The process's threads now; empty when it is gone or this is no Linux. */
    public static Optional<ContextSwitches> of(long pid) {
        return ProcTasks.read(pid, "status", ContextSwitches::readThread).map(ContextSwitches::new);
    }

    /** This JVM's threads now. */
    public static Optional<ContextSwitches> ofThisProcess() {
        return of(ProcessHandle.current().pid());
    }

    /**
     * The switches of this reading's threads since {@code earlier}: a thread that started in between counts from
     * zero. A thread that ended in between is in neither sum, so what it did after {@code earlier} is missed (the
     * kernel keeps no per-thread count of ended threads in {@code /proc}); the result is never negative.
     */
    public long since(ContextSwitches earlier) {
        long total = 0;
        for (Map.Entry<Long, Long> thread : byThread.entrySet()) {
            long before = earlier.byThread.getOrDefault(thread.getKey(), 0L);
            // a thread id the kernel reused for a new thread restarts from a lower count: count it from zero
            total += thread.getValue() >= before ? thread.getValue() - before : thread.getValue();
        }
        return total;
    }

    private static Optional<Long> readThread(Path status) {
        try {
            long switches = 0;
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(VOLUNTARY) || line.startsWith(NONVOLUNTARY)) {
                    switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return Optional.of(switches);
        } catch (IOException | NumberFormatException e) {
            return Optional.empty(); // the thread ended while it was read
        }
    }
}
