package io.cohort.cli.cluster;

import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Optional;
import org.h2.tools.Server;

/**
 * The embedded default database of a local cluster: one H2 server in the {@code cohort cluster}
 * process, listening on loopback only, so that every node sees the same shop data (accounts,
 * inventory, orders). Its files live in {@code <cluster dir>/h2/} and survive restarts.
 */
public final class EmbeddedH2Server implements AutoCloseable {

    private static final String DATABASE = "jpetstore";
    private final Server server;
    private final int port;

    private EmbeddedH2Server(Server server, int port) {
        this.server = server;
        this.port = port;
    }

    /** Starts the server on a free loopback port with its files in {@code directory}. */
    public static EmbeddedH2Server start(Path directory) throws IOException {
        Files.createDirectories(directory);
        // H2 listens on every interface unless told otherwise; this process's server is for local nodes only
        System.setProperty("h2.bindAddress", "127.0.0.1");
        int port = PresetPorts.one();
        try {
            Server server = Server.createTcpServer("-tcpPort", Integer.toString(port), "-baseDir",
                    directory.toAbsolutePath().toString(), "-ifNotExists").start();
            return new EmbeddedH2Server(server, server.getPort());
        } catch (SQLException e) {
            throw new IOException("could not start the embedded H2 database on port " + port + ": " + e.getMessage(), e);
        }
    }

    /** How the nodes reach it. */
    public ShopDatabase database() {
        return new ShopDatabase("jdbc:h2:tcp://127.0.0.1:" + port + "/./" + DATABASE, "sa", Optional.empty());
    }

    public int port() {
        return port;
    }

    @Override
    public void close() {
        server.stop();
    }
}
