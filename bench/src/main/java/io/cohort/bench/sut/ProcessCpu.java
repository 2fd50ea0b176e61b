package io.cohort.bench.sut;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalDouble;

/** CPU time of a process on this machine, read from {@code /proc/<pid>/stat} (Linux). */
public final class ProcessCpu {

    /** Clock ticks per second of {@code /proc/<pid>/stat} (USER_HZ, 100 on Linux for every common architecture). */
    private static final double TICKS_PER_SECOND = 100;

    private ProcessCpu() {
    }

    /** User + system CPU seconds of a process so far; empty when it is gone or this is no Linux. */
    public static OptionalDouble seconds(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // the command name (field 2) is in parentheses and may hold spaces: count fields after its ')'
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long utime = Long.parseLong(fields[11]); // field 14 of the whole line
            long stime = Long.parseLong(fields[12]); // field 15
            return OptionalDouble.of((utime + stime) / TICKS_PER_SECOND);
        } catch (IOException | RuntimeException e) {
            return OptionalDouble.empty();
        }
    }
}
