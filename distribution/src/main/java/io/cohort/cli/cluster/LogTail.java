package io.cohort.cli.cluster;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The last lines of a log file, read from its end so that a big log costs no more than a small one. */
public final class LogTail {

    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    /** Up to {@code lines} last lines of {@code file}; empty if it does not exist or cannot be read. */
    public static List<String> of(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try (RandomAccessFile log = new RandomAccessFile(file.toFile(), "r")) {
            long length = log.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] bytes = new byte[size];
            log.seek(length - size);
            log.readFully(bytes);
            List<String> all = Arrays.asList(new String(bytes, StandardCharsets.UTF_8).split("\\R"));
            return List.copyOf(all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return List.of();
        }
    }
}
