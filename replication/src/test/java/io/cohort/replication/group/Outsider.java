package io.cohort.replication.group;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.Version;
import org.jgroups.stack.IpAddress;
import org.jgroups.util.ByteArrayDataOutputStream;
import org.jgroups.util.UUID;
import org.jgroups.util.Util;

/** A host outside the group that writes JGroups' wire format to a member's replication port, as tests' attacker. */
final class Outsider {

    private Outsider() {
    }

    /** A message as the transport writes it, from a sender no member knows. */
    static byte[] frame(Message message) throws Exception {
        message.setSrc(UUID.randomUUID());
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream(256);
        Util.writeMessage(message, out, false);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    /** A message as the transport writes it, naming no sender at all. */
    static byte[] frameWithoutSender(Message message) throws Exception {
        message.setSrc(null);
        ByteArrayDataOutputStream out = new ByteArrayDataOutputStream(256);
        Util.writeMessage(message, out, false);
        return Arrays.copyOf(out.buffer(), out.position());
    }

    static org.jgroups.Address address(TestMember member) {
        return member.service().channel().channel().getAddress();
    }

    static void writeInt(byte[] frame, int at, int value) {
        for (int i = 0; i < 4; i++) {
            frame[at + i] = (byte) (value >>> (24 - 8 * i));
        }
    }

    /** Connects to the member's port as a peer would (cookie, version, an address), then sends the frames. */
    static void send(TestMember member, byte[]... frames) throws Exception {
        try (Socket socket = connect(member)) {
            write(socket, frames);
        }
    }

    /**
     * {@link #send}, then waits up to {@code patience} for the member to close the connection.
     *
     * @return whether the member closed it (or reset it); false if it was still open after {@code patience}
     */
    static boolean sendAndSeeClosed(TestMember member, Duration patience, byte[]... frames) throws Exception {
        try (Socket socket = connect(member)) {
            socket.setSoTimeout((int) patience.toMillis());
            try {
                write(socket, frames);
                while (socket.getInputStream().read() != -1) {
                    // a peer's answer (e.g. its own cookie): keep reading until the member closes
                }
                return true;
            } catch (SocketTimeoutException stillOpen) {
                return false;
            } catch (IOException reset) {
                return true;
            }
        }
    }

    /** The address the member's transport listens on. */
    static InetSocketAddress listening(TestMember member) {
        IpAddress physical = (IpAddress) member.service().channel().channel()
                .down(new Event(Event.GET_PHYSICAL_ADDRESS, address(member)));
        return new InetSocketAddress(physical.getIpAddress(), physical.getPort());
    }

    private static Socket connect(TestMember member) throws IOException {
        Socket socket = new Socket();
        socket.connect(listening(member), 5_000);
        return socket;
    }

    /** What a peer sends first on a connection: JGroups' cookie, its version, and an address (127.0.0.1:20000). */
    static void greet(Socket socket) throws IOException {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.write(new byte[] {'b', 'e', 'l', 'a'});
        out.writeShort(Version.version);
        out.write(new byte[] {0, 7, 4, 127, 0, 0, 1});
        out.writeShort(20_000);
        out.flush();
    }

    private static void write(Socket socket, byte[]... frames) throws IOException {
        greet(socket);
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        for (byte[] frame : frames) {
            out.writeInt(frame.length);
            out.write(frame);
        }
        out.flush();
    }
}
