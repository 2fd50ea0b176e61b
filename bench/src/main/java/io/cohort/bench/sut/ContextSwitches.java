package io.cohort.bench.sut;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

/**
 * How often the threads of a process have been switched off a CPU so far, from Linux's
 * {@code /proc/<pid>/task/<tid>/status} ({@code voluntary_ctxt_switches}: the thread blocked or parked, e.g. to
 * wait for a hand-off; {@code nonvoluntary_ctxt_switches}: it was preempted). Every thread hand-off costs at least
 * one voluntary switch, so the count per unit of work tells how many hand-offs it takes, independently of how fast
 * the machine happens to be. Threads that ended are not counted, so take differences over windows in which the
 * process keeps its threads.
 */
public final class ContextSwitches {

    private static final String VOLUNTARY = "voluntary_ctxt_switches:";
    private static final String NONVOLUNTARY = "nonvoluntary_ctxt_switches:";

    private ContextSwitches() {
    }

    /** The sum over the process's live threads; empty when it is gone or this is no Linux. */
    public static OptionalLong of(long pid) {
        long total = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                total += ofThread(task.resolve("status"));
            }
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(total);
    }

    /** This JVM's count. */
    public static OptionalLong ofThisProcess() {
        return of(ProcessHandle.current().pid());
    }

    private static long ofThread(Path status) {
        try {
            long switches = 0;
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith(VOLUNTARY) || line.startsWith(NONVOLUNTARY)) {
                    switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
            return switches;
        } catch (IOException | NumberFormatException e) {
            return 0; // the thread ended while it was read
        }
    }
}
