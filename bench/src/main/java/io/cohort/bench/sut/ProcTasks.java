package io.cohort.bench.sut;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Reads one file of every live thread of a process from Linux's {@code /proc/<pid>/task/<tid>/}. */
final class ProcTasks {

    private ProcTasks() {
    }

    /**
     * Each live thread's {@code file}, as {@code reader} makes of it, by thread id; a thread whose file the reader
     * gives nothing for (it ended while read) is left out. Empty when the process is gone or this is no Linux.
     */
    static <T> Optional<Map<Long, T>> read(long pid, String file, Function<Path, Optional<T>> reader) {
        Map<Long, T> byThread = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                long tid = Long.parseLong(task.getFileName().toString());
                reader.apply(task.resolve(file)).ifPresent(value -> byThread.put(tid, value));
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.of(byThread);
    }
}
