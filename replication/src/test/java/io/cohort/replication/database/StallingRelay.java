package io.cohort.replication.database;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on loopback in front of a database server that can be made to stop answering: after
 * {@link #stall()}, every connection, open or new, is accepted but passes nothing in either direction
 * (the database seems to hang, as behind a partition, where no reset arrives either).
 * {@link #close()} drops everything.
 */
final class StallingRelay implements AutoCloseable {

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean stalling;

    StallingRelay(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "stalling-relay-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** From now on no byte passes, on any connection. */
    void stall() {
        stalling = true;
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(target.getAddress(), target.getPort());
                open.add(client);
                pump(client, server);
                pump(server, client);
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    while (stalling && !listener.isClosed()) {
                        Thread.sleep(50); // the bytes read are held: nothing reaches the other side
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // the relay closed, or one side hung up
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "stalling-relay-pump");
        pump.setDaemon(true);
        pump.start();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        open.forEach(StallingRelay::closeQuietly);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
