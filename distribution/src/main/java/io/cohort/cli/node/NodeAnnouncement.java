package io.cohort.cli.node;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cohort.cluster.Member;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * What a started node tells the process that launched it: who it is, its process id and the
 * addresses it actually bound (ports may have been 0 in its configuration). {@code cohort node
 * --ready-file FILE} writes it once the node serves; {@code cohort cluster} reads it to find each
 * node's admin endpoint. The file appears atomically, so a reader never sees half of it.
 *
 * @param name  the node's name
 * @param host  the node's configured host
 * @param pid   the node's process id
 * @param http  where the node serves applications
 * @param admin where the node serves health, metrics and the admin API
 */
public record NodeAnnouncement(String name, String host, long pid, URI http, URI admin) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** This process, running the given member. */
    public static NodeAnnouncement of(Member self) {
        return new NodeAnnouncement(self.name(), self.host(), ProcessHandle.current().pid(), self.httpAddress(),
                self.adminAddress());
    }

    /** Writes the announcement to {@code file}, replacing an older one atomically. */
    public void write(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        Path temp = Files.createTempFile(directory, "." + file.getFileName(), ".tmp");
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), this);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    public static NodeAnnouncement read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), NodeAnnouncement.class);
    }
}
