package io.cohort.replication.group;

import io.cohort.metrics.OncePerKind;
import io.micrometer.core.instrument.Counter;
import java.io.DataInput;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.jgroups.Address;
import org.jgroups.PhysicalAddress;
import org.jgroups.blocks.cs.Connection;
import org.jgroups.logging.Slf4jLogImpl;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.LazyRemovalCache;
import org.jgroups.util.Util;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * JGroups' blocking TCP transport ({@code -Dcohort.transport=TCP}, and always under {@code <security tls="true">}),
 * reading each received message into a buffer of the length its connection announced (at most {@code max_length})
 * before parsing it, as the other transports do. JGroups' own TCP parses straight from the socket: a length field
 * inside a message could then not be checked against the bytes that arrived ({@link ArrivalInput}), and a message
 * refused half-read left the rest of it in the stream.
 *
 * <p>Under TLS ({@link #secureWith}) each arriving connection completes its handshake on a thread of its own before
 * JGroups' single acceptor thread sees it ({@link HandshakingServerSocket}): a host that opens connections and sends
 * nothing no longer holds up the connections members open to this one. Each connection this member opens is closed if
 * it is not established within the connect timeout ({@code sock_conn_timeout}) plus the same handshake time ({@link
 * ClientHandshakeDeadlines}): JGroups starts the client's handshake without a timeout, so a listed host that accepted
 * TCP and never answered held the member's only sender thread (pd bundler) for good, and no message left the member.
 * A connection given up on is logged once per kind; it is not a refused connection and not counted as one.
 *
 * <p>Once {@link #countRefusedConnections} was called, a connection refused (a failed or late TLS handshake, a
 * wrong cookie, no peer address in time) is counted in {@code cohort.replication.connections.refused} and logged once
 * per kind, instead of JGroups' warning for each: whoever reaches the port could otherwise fill the log. What JGroups
 * reports about a connection that is going away anyway (a goodbye that cannot be written to a peer that is gone, a read
 * from a socket this member closed) goes to DEBUG instead of ERROR and WARN: over TLS each member's crash or stop left
 * such lines on every other member.
 */
public class BufferedTcp extends TCP {

    private static final Logger LOG = LoggerFactory.getLogger(BufferedTcp.class);
    private static final int MAX_KINDS_LOGGED = 16;

    private volatile Counter refusedConnections;
    private volatile ClientHandshakeDeadlines clientDeadlines;
    private final OncePerKind kindsLogged = new OncePerKind(MAX_KINDS_LOGGED);

    @Override
    public void receive(Address sender, DataInput in, int length) throws Exception {
        byte[] message = new byte[length];
        in.readFully(message);
        receive(sender, message, 0, length);
    }

    /** Counts refused connections in {@code rejected} from the next {@link #start} on; call before the channel connects. */
    void countRefusedConnections(Counter rejected) {
        this.refusedConnections = rejected;
    }

    /**
     * Connects to and accepts members over TLS with {@code context} ({@link TlsSocketFactory}): each arriving
     * connection's handshake runs on a thread of its own within {@code peer_addr_read_timeout}, and a failed one is
     * refused as the acceptor's refusals are. Call before the channel starts; JGroups' own {@code tls} stays off.
     */
    void secureWith(SSLContext context) {
        ConnectionSockets.available(); // fails here, at start, if JGroups' connections no longer give their socket
        ClientHandshakeDeadlines deadlines = new ClientHandshakeDeadlines(this::getSockConnTimeout,
                () -> TlsSocketFactory.handshakeMillis(getPeerAddrReadTimeout()),
                (task, millis) -> getTimer().schedule(task, millis, TimeUnit.MILLISECONDS, true),
                this::unanswered);
        setSocketFactory(new TlsSocketFactory(context, this::getPeerAddrReadTimeout,
                (from, kind, reason) -> refused(local_addr, from, kind, reason), this::isMemberAddress, deadlines));
        this.clientDeadlines = deadlines;
    }

    /**
     * Called by JGroups after a connection's {@code connect} returned (on the connecting thread) or an arriving one was
     * read, before its receiver starts: a connection this member opened is established, its deadline cancelled.
     */
    @Override
    public void connectionEstablished(Connection connection) {
        super.connectionEstablished(connection);
        ClientHandshakeDeadlines deadlines = clientDeadlines;
        if (deadlines != null) {
            ConnectionSockets.of(connection).ifPresent(deadlines::established);
        }
    }

    @Override
    public void start() throws Exception {
        super.start(); // builds the server; its acceptor starts when the channel connects
        if (refusedConnections != null) {
            srv.setLogAcceptError(true);
            srv.log(new ConnectionServerLog());
        }
    }

    /**
     * Whether {@code address} is a member's as this transport knows the members: the physical addresses it learnt
     * (discovery, connections) and the listed initial hosts ({@code TCPPING}), so a member joining for the first time
     * counts too.
     */
    boolean isMemberAddress(InetAddress address) {
        LazyRemovalCache<Address, PhysicalAddress> learnt = logical_addr_cache;
        if (learnt != null && learnt.nonRemovedValues().stream().anyMatch(physical -> isAt(physical, address))) {
            return true;
        }
        TCPPING listed = stack == null ? null : stack.findProtocol(TCPPING.class);
        return listed != null && listed.getInitialHosts().stream().anyMatch(physical -> isAt(physical, address));
    }

    private static boolean isAt(PhysicalAddress physical, InetAddress address) {
        return physical instanceof IpAddress ip && address.equals(ip.getIpAddress());
    }

    /** Logs the first connection of each kind that this member opened and closed at its deadline. */
    private void unanswered(SocketAddress to, String kind, String reason) {
        if (kindsLogged.first(kind)) {
            LOG.warn("{}: closed its connection to {}: {} (not a member's TLS port? a wrong member address, another "
                    + "service on that port, or a hung process; further ones are not logged)", local_addr, to, reason);
        }
    }

    /** Counts a refused connection and logs the first of its kind. */
    private void refused(Object local, Object from, String kind, String reason) {
        Counter counter = refusedConnections;
        if (counter != null) {
            counter.increment();
        }
        if (kindsLogged.first(kind)) {
            LOG.warn("{}: refused a connection from {}: {} (further refusals of this kind are only counted in "
                    + "cohort.replication.connections.refused)", local, from, reason);
        }
    }

    /**
     * JGroups' log of the connection server: refused connections counted and logged once per kind, the end of a
     * connection that is closing anyway at DEBUG, everything else as JGroups logs it.
     */
    private final class ConnectionServerLog extends Slf4jLogImpl {
        private static final String ACCEPT_ERROR = Util.getMessage("AcceptError");
        private static final String GRACEFUL_CLOSE_FAILED = "failed sending graceful close";
        private static final String HANDLING_FAILED = "failed handling message";

        ConnectionServerLog() {
            super(BufferedTcp.class);
        }

        /** A goodbye that could not be written: the connection is being closed because its peer is gone already. */
        @Override
        public void error(String message, Object... args) {
            if (message.contains(GRACEFUL_CLOSE_FAILED)) {
                super.debug(message, args);
            } else {
                super.error(message, args);
            }
        }

        /** A receiver that read from a socket this member closed (it stops, or dropped the connection). */
        @Override
        public void warn(String message, Throwable failure) {
            if (message.endsWith(HANDLING_FAILED) && closedHere(failure)) {
                super.debug(message, failure);
            } else {
                super.warn(message, failure);
            }
        }

        private static boolean closedHere(Throwable failure) {
            return failure instanceof java.io.IOException && "Stream closed".equals(failure.getMessage());
        }

        @Override
        public void warn(String message, Object... args) {
            if (!ACCEPT_ERROR.equals(message) || args.length < 3) {
                super.warn(message, args);
                return;
            }
            Object why = args[2];
            String kind = why instanceof Throwable t ? t.getClass().getName() : String.valueOf(why);
            Object from = args[1] instanceof Socket socket ? socket.getRemoteSocketAddress() : args[1];
            refused(args[0], from, kind, String.valueOf(why));
        }
    }
}
