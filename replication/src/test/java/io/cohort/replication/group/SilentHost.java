package io.cohort.replication.group;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host at a listed member's address that accepts TCP connections and never writes a byte: what a member meets at a
 * wrong address, another service that waits for its client to speak first, or a hung process. It reads (and drops)
 * what connections send and counts those that their other end closed. {@link #close()} ends every thread it started.
 */
final class SilentHost implements AutoCloseable {

    private final ServerSocket server;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();
    private final AtomicInteger closedByPeer = new AtomicInteger();

    private SilentHost(ServerSocket server) {
        this.server = server;
    }

    /** Listens on 127.0.0.1:{@code port}. */
    static SilentHost listeningOn(int port) throws IOException {
        SilentHost host = new SilentHost(new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1")));
        Thread acceptor = new Thread(host::acceptAll, "silent-host-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return host;
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.size();
    }

    /** Accepted connections that the connecting side closed (end of stream or a reset). */
    int closedByPeer() {
        return closedByPeer.get();
    }

    private void acceptAll() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                accepted.add(socket);
                Thread reader = new Thread(() -> readUntilClosed(socket), "silent-host-read");
                reader.setDaemon(true);
                reader.start();
            } catch (IOException closing) {
                return;
            }
        }
    }

    private void readUntilClosed(Socket socket) {
        byte[] discarded = new byte[4096];
        try (InputStream in = socket.getInputStream()) {
            while (in.read(discarded) >= 0) {
                // a TLS client's hello: never answered
            }
        } catch (IOException reset) {
            // closed by the member (a reset) or by close() below
        }
        if (!server.isClosed()) {
            closedByPeer.incrementAndGet();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : accepted) {
            socket.close();
        }
    }
}
