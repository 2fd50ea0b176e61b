package io.cohort.balancer;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.eclipse.jetty.io.Connection;

/**
 * {@code max-connections-per-address}: counts the open client connections of each remote address and
 * closes, as soon as it is opened, a connection that would take its address over the limit.
 * Connections from the trusted proxies are not counted (each carries many clients). Added as a bean
 * of the proxy connector, whose connections report to it. Thread-safe.
 */
final class AddressConnectionLimit implements Connection.Listener {

    private final int limit;
    private final Predicate<InetAddress> exempt;
    private final ClientConnectionClosures closures;
    private final ConcurrentHashMap<InetAddress, Integer> open = new ConcurrentHashMap<>();
    /** The address each counted connection was counted under: a closed endpoint no longer knows its peer. */
    private final ConcurrentHashMap<Connection, InetAddress> counted = new ConcurrentHashMap<>();

    /**
     * @param limit          the most connections one address may have open
     * @param exempt   the addresses not counted: the trusted proxies ({@link ForwardedHeaders#isTrustedProxy(InetAddress)})
     * @param closures where refused connections are reported
     */
    AddressConnectionLimit(int limit, Predicate<InetAddress> exempt, ClientConnectionClosures closures) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1: " + limit);
        }
        this.limit = limit;
        this.exempt = exempt;
        this.closures = closures;
    }

    @Override
    public void onOpened(Connection connection) {
        SocketAddress remote = connection.getEndPoint().getRemoteSocketAddress();
        InetAddress address = countedAddress(remote);
        if (address == null) {
            return;
        }
        counted.put(connection, address);
        if (open.merge(address, 1, Integer::sum) > limit) {
            closures.closed(ClientConnectionClosures.Reason.PER_ADDRESS_LIMIT, remote);
            connection.getEndPoint().close();
        }
    }

    @Override
    public void onClosed(Connection connection) {
        InetAddress address = counted.remove(connection);
        if (address != null) {
            open.computeIfPresent(address, (a, count) -> count == 1 ? null : count - 1);
        }
    }

    /** How many connections {@code address} has open (the refused ones until they have closed). */
    int openFrom(InetAddress address) {
        return open.getOrDefault(address, 0);
    }

    private InetAddress countedAddress(SocketAddress remote) {
        if (remote instanceof InetSocketAddress socket && socket.getAddress() != null && !exempt.test(socket.getAddress())) {
            return socket.getAddress();
        }
        return null;
    }
}
