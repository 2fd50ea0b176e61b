package io.cohort.cli.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks ports that are free on loopback now, for components that must know their port in advance. */
final class FreePorts {

    private FreePorts() {
    }

    static int loopback() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
