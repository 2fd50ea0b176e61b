package io.cohort.replication.group;

import io.cohort.net.PresetPorts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for in-JVM groups on 127.0.0.1 that neither collide with each other nor with parallel
 * builds: a port {@link PresetPorts} picks (below the kernel's ephemeral range, so that no outgoing
 * connection made between the pick and the bind can take one, and apart from the other ports picked
 * in this JVM) whose JGroups failure-detection neighbours (+100, +101) are free as well.
 */
public final class TestPorts {

    private TestPorts() {
    }

    public static synchronized int freePort() {
        for (int attempt = 0; attempt < 200; attempt++) {
            int port;
            try {
                port = PresetPorts.one();
            } catch (IOException e) {
                throw new IllegalStateException("no free port found", e);
            }
            if (free(port + 100) && free(port + 101)) {
                return port;
            }
        }
        throw new IllegalStateException("no free port found");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A multicast group and port unlikely to be used by a parallel build. */
    public static String multicastAddress() {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        return "230.31." + r.nextInt(1, 255) + "." + r.nextInt(1, 255);
    }
}
