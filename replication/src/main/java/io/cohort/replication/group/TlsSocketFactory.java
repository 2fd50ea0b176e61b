package io.cohort.replication.group;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.jgroups.util.DefaultSocketFactory;

/**
 * The transport's sockets under {@code <security tls="true">}: connections it opens speak only {@link
 * TlsIdentity#PROTOCOL} (the transport starts their handshake itself once connected) and each has a deadline ({@link
 * ClientHandshakeDeadlines}), and the port it listens on is a {@link HandshakingServerSocket}, which requires the
 * client's certificate and hands the transport only connections whose handshake completed. Both sides allow a
 * handshake the same time. The context decides which certificates are presented and trusted ({@link TlsIdentity}).
 */
final class TlsSocketFactory extends DefaultSocketFactory {

    /** A handshake's time when the transport's timeout is 0 (JGroups: wait forever), which no handshake may take. */
    static final int UNBOUNDED_TIMEOUT_STANDIN_MILLIS = 1_000;

    private final SSLContext context;
    private final IntSupplier handshakeMillis;
    private final HandshakingServerSocket.Refusals refusals;
    private final Predicate<InetAddress> memberAddress;

    /**
     * @param handshakeMillis how long an arriving connection may take to complete its handshake, read when the
     *     listening socket is created (the transport's {@code peer_addr_read_timeout}, set after this factory); 0 or
     *     less stands for {@value #UNBOUNDED_TIMEOUT_STANDIN_MILLIS} ms ({@link #handshakeMillis(int)})
     * @param memberAddress whether an arriving connection's address is a member's: those have handshakes of their own
     *     ({@link HandshakingServerSocket#MAX_UNDER_WAY_FROM_MEMBERS})
     * @param deadlines armed for each socket created to connect to a member
     */
    TlsSocketFactory(SSLContext context, IntSupplier handshakeMillis, HandshakingServerSocket.Refusals refusals,
            Predicate<InetAddress> memberAddress, ClientHandshakeDeadlines deadlines) {
        super(context);
        this.context = context;
        this.handshakeMillis = handshakeMillis;
        this.refusals = refusals;
        this.memberAddress = memberAddress;
        SSLParameters client = new SSLParameters();
        client.setProtocols(new String[] {TlsIdentity.PROTOCOL});
        setSocketConfigurator(socket -> {
            ((SSLSocket) socket).setSSLParameters(client);
            deadlines.arm(socket);
        });
    }

    /** The time a handshake may take for the transport's {@code peer_addr_read_timeout} (0 or less: JGroups' "forever"). */
    static int handshakeMillis(int transportTimeoutMillis) {
        return transportTimeoutMillis > 0 ? transportTimeoutMillis : UNBOUNDED_TIMEOUT_STANDIN_MILLIS;
    }

    @Override
    public ServerSocket createServerSocket(String serviceName) throws IOException {
        SSLParameters server = new SSLParameters();
        server.setProtocols(new String[] {TlsIdentity.PROTOCOL});
        server.setNeedClientAuth(true);
        return new HandshakingServerSocket(context.getSocketFactory(), server,
                Duration.ofMillis(handshakeMillis(handshakeMillis.getAsInt())), refusals, memberAddress);
    }

    @Override
    public ServerSocket createServerSocket(String serviceName, int port) throws IOException {
        return bound(createServerSocket(serviceName), new InetSocketAddress(port), 0);
    }

    @Override
    public ServerSocket createServerSocket(String serviceName, int port, int backlog) throws IOException {
        return bound(createServerSocket(serviceName), new InetSocketAddress(port), backlog);
    }

    @Override
    public ServerSocket createServerSocket(String serviceName, int port, int backlog, InetAddress bindAddress)
            throws IOException {
        return bound(createServerSocket(serviceName), new InetSocketAddress(bindAddress, port), backlog);
    }

    private static ServerSocket bound(ServerSocket socket, SocketAddress address, int backlog) throws IOException {
        try {
            socket.bind(address, backlog);
            return socket;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }
}
