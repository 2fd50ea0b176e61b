package io.cohort.bench.sut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * CPU time of a process's live threads at one instant, each with its {@link NodeThreads} kind, read from Linux's
 * {@code /proc/<pid>/task/<tid>/stat}; {@link #since} turns two readings into CPU seconds per kind. Clock ticks are
 * 10 ms, so intervals of several seconds are needed for a useful split.
 *
 * @param processSeconds user + system CPU seconds of the whole process, ended threads included
 * @param threads        per live thread id: its kind and its CPU seconds so far
 */
public record ThreadCpu(double processSeconds, Map<Long, Reading> threads) {

    /** Clock ticks per second of {@code /proc/.../stat} (USER_HZ). */
    private static final double TICKS_PER_SECOND = 100;

    /**
     * One thread's reading.
     *
     * @param kind    what it works on
     * @param seconds its user + system CPU seconds so far
     */
    public record Reading(NodeThreads kind, double seconds) {
    }

    public ThreadCpu {
        threads = Map.copyOf(threads);
    }

    /** The process's threads now; empty when it is gone or this is no Linux. */
    public static Optional<ThreadCpu> of(long pid) {
        Optional<Map<Long, Reading>> threads = ProcTasks.read(pid, "stat", ThreadCpu::readThread);
        OptionalDouble total = ProcessCpu.seconds(pid); // read after the threads: it includes every second they had
        if (threads.isEmpty() || total.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ThreadCpu(total.getAsDouble(), threads.get()));
    }

    /**
     * CPU seconds per kind between {@code earlier} and this reading. A thread that started in between counts from
     * zero; the time of threads that ended in between is the process's growth that no live thread accounts for,
     * reported as {@link NodeThreads#ENDED} (never below zero).
     */
    public Map<NodeThreads, Double> since(ThreadCpu earlier) {
        Map<NodeThreads, Double> byKind = new EnumMap<>(NodeThreads.class);
        for (NodeThreads kind : NodeThreads.values()) {
            byKind.put(kind, 0.0);
        }
        double live = 0;
        for (Map.Entry<Long, Reading> entry : threads.entrySet()) {
            Reading before = earlier.threads.get(entry.getKey());
            double spent = entry.getValue().seconds() - (before == null ? 0 : before.seconds());
            byKind.merge(entry.getValue().kind(), spent, Double::sum);
            live += spent;
        }
        // the process's total keeps what its ended threads spent: its growth less the live threads' is theirs
        byKind.put(NodeThreads.ENDED, Math.max(0, processSeconds - earlier.processSeconds - live));
        return byKind;
    }

    private static Optional<Reading> readThread(Path stat) {
        try {
            String line = Files.readString(stat);
            int open = line.indexOf('(');
            int close = line.lastIndexOf(')');
            String comm = line.substring(open + 1, close);
            String[] fields = line.substring(close + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime: fields 14 and 15
            return Optional.of(new Reading(NodeThreads.of(comm), ticks / TICKS_PER_SECOND));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // the thread ended while it was read
        }
    }
}
