package io.cohort.replication.group;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A listening socket whose {@link #accept()} returns only TLS connections that completed their handshake, the
 * client's certificate checked. Handshakes run side by side on threads of their own, each within a deadline, instead
 * of on the caller of {@code accept()}: JGroups' transport accepts on one thread and would otherwise run each
 * handshake there, so a host that opened connections and sent nothing held up every member's new connection by the
 * handshake timeout per silent connection.
 *
 * <p>What a host can still take: at most {@value #MAX_UNDER_WAY_PER_ADDRESS} handshakes under way from one address and
 * {@value #MAX_UNDER_WAY} in all from addresses that are not the group's members'; a connection beyond either bound is
 * closed at once. Connections from the members' addresses (as the transport knows them: {@code memberAddress}) have
 * {@value #MAX_UNDER_WAY_FROM_MEMBERS} handshakes of their own, so hosts that fill the others from many addresses
 * delay no member's connection. Every connection refused (a
 * failed or late handshake, a bound reached) is reported to {@link Refusals}. The socket's own {@code SO_TIMEOUT} is
 * not applied to {@code accept()}.
 */
final class HandshakingServerSocket extends ServerSocket {

    /** Handshakes under way at once from addresses not the members'; a connection beyond them is closed without one. */
    static final int MAX_UNDER_WAY = 64;
    /** Handshakes under way at once from the members' addresses, beside {@link #MAX_UNDER_WAY}. */
    static final int MAX_UNDER_WAY_FROM_MEMBERS = 16;
    /** Handshakes under way at once from one address: one host cannot take all of {@link #MAX_UNDER_WAY}. */
    static final int MAX_UNDER_WAY_PER_ADDRESS = 8;
    /** Connections handshaken but not yet taken by {@code accept()}; more are closed. */
    private static final int MAX_WAITING = 256;
    private static final long POLL_MILLIS = 100;
    private static final long PAUSE_AFTER_FAILED_ACCEPT_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(HandshakingServerSocket.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    /**
     * Where refused connections are reported. Called from the handshake threads; must not block. A connection refused
     * for a bound is reported before it is closed; one whose handshake failed has usually been closed already by the
     * TLS engine's alert, so its peer can see the close before the report.
     */
    @FunctionalInterface
    interface Refusals {
        /**
         * @param from the peer's address
         * @param kind what went wrong, in a few words that do not depend on the peer (for logging once per kind)
         * @param reason what went wrong for this connection
         */
        void refused(SocketAddress from, String kind, String reason);
    }

    private final SSLSocketFactory tls;
    private final SSLParameters parameters;
    private final Duration handshakeTime;
    private final Refusals refusals;
    private final Predicate<InetAddress> memberAddress;
    private final AtomicInteger outsidersUnderWay = new AtomicInteger();
    private final AtomicInteger membersUnderWay = new AtomicInteger();
    private final BlockingQueue<SSLSocket> handshaken = new LinkedBlockingQueue<>(MAX_WAITING);
    private final Set<Socket> underWay = ConcurrentHashMap.newKeySet();
    private final Map<InetAddress, Integer> underWayByAddress = new HashMap<>();
    private final ThreadPoolExecutor handshakes;
    private final ScheduledThreadPoolExecutor deadlines;
    private final AtomicBoolean accepting = new AtomicBoolean();
    private final AtomicBoolean acceptFailureLogged = new AtomicBoolean();
    private final String name = "cohort-tls-accept-" + INSTANCES.incrementAndGet();

    /**
     * An unbound socket; bind it before {@link #accept()}.
     *
     * @param parameters the server side's: protocols, and whether the client's certificate is needed
     * @param handshakeTime how long a connection may take from its arrival to the end of its handshake
     * @param memberAddress whether an address is one of the group's members' (asked once per arriving connection, on
     *     the accepting thread; must not block)
     */
    HandshakingServerSocket(SSLSocketFactory tls, SSLParameters parameters, Duration handshakeTime, Refusals refusals,
            Predicate<InetAddress> memberAddress) throws IOException {
        if (handshakeTime.isNegative() || handshakeTime.isZero()) {
            throw new IllegalArgumentException("handshake time must be positive: " + handshakeTime);
        }
        this.tls = tls;
        this.parameters = parameters;
        this.handshakeTime = handshakeTime;
        this.refusals = refusals;
        this.memberAddress = memberAddress;
        // the counts bound the handshakes; the threads have room for those whose thread is just finishing
        this.handshakes = new ThreadPoolExecutor(0, 2 * (MAX_UNDER_WAY + MAX_UNDER_WAY_FROM_MEMBERS), 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                daemons(name + "-handshake"));
        this.deadlines = new ScheduledThreadPoolExecutor(1, daemons(name + "-deadline"));
        deadlines.setRemoveOnCancelPolicy(true);
    }

    /** The next connection whose handshake completed; the first call starts taking connections. */
    @Override
    public Socket accept() throws IOException {
        if (isClosed()) {
            throw new SocketException("Socket is closed");
        }
        if (!isBound()) {
            throw new SocketException("Socket is not bound yet");
        }
        if (accepting.compareAndSet(false, true)) {
            Thread loop = new Thread(this::acceptLoop, name);
            loop.setDaemon(true);
            loop.start();
        }
        try {
            while (!isClosed()) {
                SSLSocket socket = handshaken.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (socket != null) {
                    if (!isClosed()) {
                        return socket;
                    }
                    closeQuietly(socket);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a connection");
        }
        throw new SocketException("Socket is closed");
    }

    @Override
    public void close() throws IOException {
        super.close();
        handshakes.shutdownNow();
        deadlines.shutdownNow();
        underWay.forEach(HandshakingServerSocket::closeQuietly);
        closeWaiting();
    }

    private void acceptLoop() {
        while (!isClosed()) {
            Socket raw;
            try {
                raw = acceptConnection();
            } catch (IOException e) {
                if (isClosed()) {
                    return;
                }
                // e.g. out of file descriptors: keep listening, without spinning
                if (acceptFailureLogged.compareAndSet(false, true)) {
                    LOG.warn("{}: accepting a connection failed: {} (further failures are not logged)", name, e.toString());
                }
                pause();
                continue;
            }
            dispatch(raw);
        }
    }

    private Socket acceptConnection() throws IOException {
        return super.accept();
    }

    private void dispatch(Socket raw) {
        InetAddress from = raw.getInetAddress();
        if (!reserve(from)) {
            refuse(raw, "too many handshakes under way from one address",
                    "more than " + MAX_UNDER_WAY_PER_ADDRESS + " TLS handshakes under way from " + from.getHostAddress());
            return;
        }
        boolean member = memberAddress.test(from);
        AtomicInteger pool = member ? membersUnderWay : outsidersUnderWay;
        int bound = member ? MAX_UNDER_WAY_FROM_MEMBERS : MAX_UNDER_WAY;
        if (pool.incrementAndGet() > bound) {
            pool.decrementAndGet();
            release(from);
            refuse(raw, member ? "too many handshakes under way from members" : "too many handshakes under way",
                    bound + " TLS handshakes under way already" + (member ? " from the members' addresses" : ""));
            return;
        }
        try {
            handshakes.execute(() -> {
                try {
                    handshake(raw, from);
                } finally {
                    pool.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException full) {
            pool.decrementAndGet();
            release(from);
            if (isClosed()) {
                closeQuietly(raw);
            } else {
                refuse(raw, "too many handshakes under way", "no thread left for a TLS handshake");
            }
        }
    }

    private void handshake(Socket raw, InetAddress from) {
        underWay.add(raw);
        AtomicBoolean late = new AtomicBoolean();
        long millis = handshakeTime.toMillis();
        ScheduledFuture<?> deadline;
        try {
            deadline = deadlines.schedule(() -> {
                late.set(true);
                closeQuietly(raw);
            }, millis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            underWay.remove(raw);
            release(from);
            closeQuietly(raw);
            return;
        }
        try {
            raw.setSoTimeout((int) Math.min(Integer.MAX_VALUE, millis));
            SSLSocket socket = (SSLSocket) tls.createSocket(raw, from.getHostAddress(), raw.getPort(), true);
            socket.setUseClientMode(false);
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            if (!deadline.cancel(false)) {
                throw new SocketException("closed at the deadline");
            }
            raw.setSoTimeout(0);
            handOver(socket);
        } catch (IOException | RuntimeException failure) {
            deadline.cancel(false);
            closeQuietly(raw);
            if (!isClosed()) {
                if (late.get() || failure instanceof SocketTimeoutException) {
                    refusals.refused(raw.getRemoteSocketAddress(), "no TLS handshake in time",
                            "no TLS handshake within " + millis + " ms");
                } else {
                    refusals.refused(raw.getRemoteSocketAddress(), failure.getClass().getName(), failure.toString());
                }
            }
        } finally {
            underWay.remove(raw);
            release(from);
        }
    }

    private void handOver(SSLSocket socket) {
        if (!handshaken.offer(socket)) {
            refusals.refused(socket.getRemoteSocketAddress(), "too many connections waiting to be taken",
                    MAX_WAITING + " handshaken connections not yet taken");
            closeQuietly(socket);
        } else if (isClosed()) {
            closeWaiting(); // close() may have drained the queue before this offer
        }
    }

    private boolean reserve(InetAddress from) {
        synchronized (underWayByAddress) {
            int count = underWayByAddress.getOrDefault(from, 0);
            if (count >= MAX_UNDER_WAY_PER_ADDRESS) {
                return false;
            }
            underWayByAddress.put(from, count + 1);
            return true;
        }
    }

    private void release(InetAddress from) {
        synchronized (underWayByAddress) {
            underWayByAddress.computeIfPresent(from, (address, count) -> count == 1 ? null : count - 1);
        }
    }

    private void refuse(Socket raw, String kind, String reason) {
        refusals.refused(raw.getRemoteSocketAddress(), kind, reason); // counted before the peer can see the close
        closeQuietly(raw);
    }

    private void closeWaiting() {
        for (SSLSocket socket = handshaken.poll(); socket != null; socket = handshaken.poll()) {
            closeQuietly(socket);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_AFTER_FAILED_ACCEPT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing a connection that is being refused or abandoned: nothing left to do with it
        }
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
