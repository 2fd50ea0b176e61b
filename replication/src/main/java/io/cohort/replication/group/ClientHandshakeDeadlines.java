package io.cohort.replication.group;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;

/**
 * A deadline for each TLS connection this member opens: a connection not established by then (TCP connect, TLS
 * handshake and JGroups' greeting) is closed, which ends the handshake its connecting thread is blocked in. JGroups
 * starts the client's handshake with no read timeout ({@code TcpConnection.connect}), so a host that accepts TCP and
 * never answers (a wrong address in the members list, another service on that port that waits for its client to speak,
 * a hung process) held the connecting thread forever, and with it JGroups' lock for that destination; under the pd
 * bundler that thread is the only sender of the member's messages to anyone.
 *
 * <p>Why a deadline rather than the alternatives: a read timeout ({@code SO_TIMEOUT}) bounds each read, not the
 * handshake (a host that dribbles a byte per second keeps it going), and would have to be cleared before JGroups'
 * receiver starts reading the established connection, which treats a timeout as a failure and closes it. None of the
 * socket's non-blocking accessors tells a handshake under way from one completed (the client's {@code
 * getHandshakeSession()} is null until the server's hello arrives, the case to catch), and a {@code
 * HandshakeCompletedListener} is notified on a thread of its own, possibly after the deadline. So the deadline is
 * cancelled by {@link #established}, which the transport calls on the connecting thread once {@code connect} returned
 * and before the connection's receiver starts ({@code connectionEstablished}).
 *
 * <p>A deadline runs {@code connectMillis + handshakeMillis} after {@link #arm}: the socket is created just before
 * JGroups connects it, and the connect is bounded by the transport's {@code sock_conn_timeout}. If the socket is not
 * connected yet by then (a connect timeout of 0, which JGroups does not bound), it is checked again one handshake time
 * later. Thread-safe.
 */
final class ClientHandshakeDeadlines {

    /** Runs a task after a delay; must not run it on the caller's thread. */
    @FunctionalInterface
    interface Scheduler {
        void schedule(Runnable task, long delayMillis);
    }

    /** Where a connection closed at its deadline is reported; called on the scheduler's thread, must not block. */
    @FunctionalInterface
    interface Unanswered {
        /**
         * @param to the address the member connected to
         * @param kind what went wrong, in words that do not depend on the address (for logging once per kind)
         * @param reason what went wrong for this connection
         */
        void unanswered(SocketAddress to, String kind, String reason);
    }

    /** The kind of {@link Unanswered} report for a connection closed at its deadline. */
    static final String NO_HANDSHAKE_IN_TIME = "no TLS handshake in time from a host this member connected to";

    private final IntSupplier connectMillis;
    private final IntSupplier handshakeMillis;
    private final Scheduler scheduler;
    private final Unanswered unanswered;
    private final Set<Socket> underWay = ConcurrentHashMap.newKeySet();

    /**
     * @param connectMillis the transport's connect timeout ({@code sock_conn_timeout}), read at each {@link #arm}
     * @param handshakeMillis how long the handshake may take once connected, read at each {@link #arm}; positive
     */
    ClientHandshakeDeadlines(IntSupplier connectMillis, IntSupplier handshakeMillis, Scheduler scheduler,
            Unanswered unanswered) {
        this.connectMillis = connectMillis;
        this.handshakeMillis = handshakeMillis;
        this.scheduler = scheduler;
        this.unanswered = unanswered;
    }

    /** Starts the deadline of a socket just created to connect to a member; call before it connects. */
    void arm(Socket socket) {
        underWay.add(socket);
        int handshake = handshakeMillis.getAsInt();
        scheduler.schedule(() -> expire(socket, handshake), Math.max(0, connectMillis.getAsInt()) + (long) handshake);
    }

    /**
     * Cancels the deadline of {@code socket}, whose connection was established; a socket without one (an accepted
     * connection's) is ignored. A socket whose deadline passed already stays closed.
     */
    void established(Socket socket) {
        underWay.remove(socket);
    }

    /** Sockets whose deadline is still to come. */
    int underWay() {
        return underWay.size();
    }

    private void expire(Socket socket, int handshake) {
        if (!underWay.contains(socket)) {
            return;
        }
        if (socket.isClosed()) { // the connect or the handshake failed, and JGroups closed the socket
            underWay.remove(socket);
            return;
        }
        if (!socket.isConnected()) { // an unbounded connect still under way: the handshake has not started
            scheduler.schedule(() -> expire(socket, handshake), handshake);
            return;
        }
        if (underWay.remove(socket)) {
            SocketAddress to = socket.getRemoteSocketAddress();
            closeQuietly(socket);
            unanswered.unanswered(to, NO_HANDSHAKE_IN_TIME, "no TLS handshake from " + to + " within " + handshake + " ms");
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the connecting thread's handshake fails either way
        }
    }
}
