package io.cohort.cli.cluster;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A running local cluster as {@code cohort cluster} leaves it in {@code <dir>/cluster.json}, for
 * {@code cohort deploy}, {@code undeploy} and {@code status}. The file holds the admin token, so
 * it is readable by its owner only (0600); it is removed when the cluster stops.
 *
 * @param format     the file format's version, {@value #FORMAT}
 * @param pid        the process id of {@code cohort cluster}
 * @param startedAt  when the cluster was up, ISO-8601
 * @param adminToken the bearer token of every node's admin API
 * @param nodes      the members, in order
 */
public record ClusterState(int format, long pid, String startedAt, String adminToken, List<Node> nodes) {

    public static final String FILE_NAME = "cluster.json";
    public static final int FORMAT = 1;

    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final FileAttribute<?> OWNER_ONLY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"));

    public ClusterState {
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(adminToken, "adminToken");
        nodes = List.copyOf(nodes);
    }

    /**
     * One member of the cluster.
     *
     * @param name  node name
     * @param host  the host it emulates
     * @param http  where it serves applications
     * @param admin where it serves health, metrics and the admin API
     * @param pid   its process id
     * @param log   its log file
     */
    public record Node(String name, String host, URI http, URI admin, long pid, String log) {
    }

    /** Writes the file atomically, owner-readable only (on file systems with POSIX permissions). */
    public void write(Path file) throws IOException {
        Path directory = file.toAbsolutePath().getParent();
        Files.createDirectories(directory);
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        Path temp = posix
                ? Files.createTempFile(directory, ".cluster-", ".tmp", OWNER_ONLY)
                : Files.createTempFile(directory, ".cluster-", ".tmp");
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(temp.toFile(), this);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    public static ClusterState read(Path file) throws IOException {
        ClusterState state = JSON.readValue(file.toFile(), ClusterState.class);
        if (state.format() != FORMAT) {
            throw new IOException(file + " has format " + state.format() + ", this cohort reads format " + FORMAT);
        }
        return state;
    }

    /**
     * Whether the {@code cohort cluster} process that wrote this is still running: a live process with its pid that
     * started before the cluster was up. One that started later got the pid after the writer died (a crash, a reboot)
     * and makes the file stale.
     */
    public boolean clusterProcessAlive() {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(this::startedBeforeTheCluster).orElse(false);
    }

    private boolean startedBeforeTheCluster(ProcessHandle process) {
        Optional<Instant> started = process.info().startInstant();
        try {
            return started.isEmpty() || !started.get().isAfter(Instant.parse(startedAt));
        } catch (DateTimeParseException unreadable) {
            return true; // cannot tell: assume it is the writer
        }
    }
}
