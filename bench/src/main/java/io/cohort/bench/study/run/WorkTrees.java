package io.cohort.bench.study.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the bench's own scratch directories (cluster homes, unpacked WARs); best effort. */
final class WorkTrees {

    private WorkTrees() {
    }

    /** Deletes {@code root} and everything below it; a file that cannot be deleted is left (it only wastes disk). */
    static void delete(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // leftover files waste disk space only
        }
    }
}
