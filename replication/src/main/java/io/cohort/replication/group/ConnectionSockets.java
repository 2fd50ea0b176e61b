package io.cohort.replication.group;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.Socket;
import java.util.Optional;
import org.jgroups.blocks.cs.Connection;
import org.jgroups.blocks.cs.TcpConnection;

/**
 * The socket of a JGroups {@link TcpConnection}, which JGroups keeps in a protected field ({@code sock}) without an
 * accessor. Read through a {@link VarHandle} found when this class loads: a JGroups version without that field fails
 * the class's initialisation (at {@link #available()}, when the transport is secured), not a connection later.
 */
final class ConnectionSockets {

    private static final VarHandle SOCKET = socketField();

    private ConnectionSockets() {
    }

    /** Loads this class: throws {@link ExceptionInInitializerError} if the field cannot be read. */
    static void available() {
        // the static initialiser did the work
    }

    /** The connection's socket; empty for a connection of another kind (e.g. NIO). */
    static Optional<Socket> of(Connection connection) {
        return connection instanceof TcpConnection tcp ? Optional.ofNullable((Socket) SOCKET.get(tcp)) : Optional.empty();
    }

    private static VarHandle socketField() {
        try {
            return MethodHandles.privateLookupIn(TcpConnection.class, MethodHandles.lookup())
                    .findVarHandle(TcpConnection.class, "sock", Socket.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JGroups' TcpConnection no longer keeps its socket in 'sock'", e);
        }
    }
}
