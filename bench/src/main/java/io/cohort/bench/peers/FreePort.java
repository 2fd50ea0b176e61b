package io.cohort.bench.peers;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** A port free on loopback now, for processes that must be told their port in advance. */
public final class FreePort {

    private FreePort() {
    }

    public static int loopback() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
