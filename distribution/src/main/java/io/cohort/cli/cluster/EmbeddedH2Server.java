package io.cohort.cli.cluster;

import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Base64;
import java.util.Optional;
import org.h2.tools.Server;

/**
 * The embedded default database of a local cluster: one H2 server in the {@code cohort cluster}
 * process, listening on loopback only, so that every node sees the same shop data (accounts,
 * inventory, orders). Its files live in {@code <cluster dir>/h2/} and survive restarts.
 *
 * <p>Other users of the machine can reach a loopback port too, and H2 runs SQL-defined Java functions
 * ({@code CREATE ALIAS}) inside the server's process, so the server is locked down: it serves only the
 * {@code jpetstore} database that exists before it starts (no {@code -ifNotExists}: nobody can create a
 * database of their own), whose user {@code sa} has a random password kept in a file only the owner may
 * read ({@code h2/.password}, mode 0600, like the directory). The nodes get the password in an
 * environment variable ({@link ShopDatabase#PASSWORD_ENV}), never in their configuration files.
 */
public final class EmbeddedH2Server implements AutoCloseable {

    private static final String DATABASE = "jpetstore";
    private static final String USER = "sa";
    private static final String PASSWORD_FILE = ".password";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Server server;
    private final int port;
    private final String password;

    private EmbeddedH2Server(Server server, int port, String password) {
        this.server = server;
        this.port = port;
        this.password = password;
    }

    /** Starts the server on a free loopback port with its files in {@code directory}. */
    public static EmbeddedH2Server start(Path directory) throws IOException {
        // H2 listens on every interface unless told otherwise; this process's server is for local nodes only. H2 reads
        // the setting once, when it is first used (below, to prepare the database), so it is set before that
        System.setProperty("h2.bindAddress", "127.0.0.1");
        Files.createDirectories(directory);
        ownerOnly(directory, "rwx------");
        String password = password(directory);
        try {
            prepare(directory, password);
        } catch (SQLException e) {
            throw new IOException("could not open the embedded H2 database in " + directory + ": " + e.getMessage(), e);
        }
        int port = PresetPorts.one();
        try {
            Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir",
                    directory.toAbsolutePath().toString()).start();
            return new EmbeddedH2Server(server, server.getPort(), password);
        } catch (SQLException e) {
            throw new IOException("could not start the embedded H2 database on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** How the nodes reach it. */
    public ShopDatabase database() {
        return new ShopDatabase("jdbc:h2:tcp://127.0.0.1:" + port + "/./" + DATABASE, USER, Optional.of(password));
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        server.stop();
    }

    /** The directory's password, made (and kept, owner-only) the first time. */
    private static String password(Path directory) throws IOException {
        Path file = directory.resolve(PASSWORD_FILE);
        if (Files.exists(file)) {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        }
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        String fresh = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        Files.writeString(file, fresh, StandardCharsets.UTF_8);
        ownerOnly(file, "rw-------");
        return fresh;
    }

    /**
     * Creates the database with the password, or opens it; a database left by an earlier version of this launcher
     * (user {@code sa} without a password) is given the password.
     */
    private static void prepare(Path directory, String password) throws SQLException {
        String url = "jdbc:h2:file:" + directory.toAbsolutePath().resolve(DATABASE);
        try (Connection ignored = DriverManager.getConnection(url, USER, password)) {
            return;
        } catch (SQLException wrongPassword) {
            if (!Files.exists(directory.resolve(DATABASE + ".mv.db"))) {
                throw wrongPassword;
            }
            try (Connection legacy = DriverManager.getConnection(url, USER, "");
                 Statement statement = legacy.createStatement()) {
                statement.execute("ALTER USER " + USER + " SET PASSWORD '" + password + "'");
            } catch (SQLException stillRefused) {
                stillRefused.addSuppressed(wrongPassword);
                throw stillRefused;
            }
        }
    }

    private static void ownerOnly(Path path, String permissions) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
        }
    }
}
