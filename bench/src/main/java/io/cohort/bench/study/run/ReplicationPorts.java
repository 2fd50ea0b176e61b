package io.cohort.bench.study.run;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Replication ports for a local cluster, which must be known before the nodes start. They are taken below the
 * kernel's ephemeral port range ({@code /proc/sys/net/ipv4/ip_local_port_range}), so that no socket bound to port
 * 0 in the meantime (a node's HTTP or admin connector, a client connection) can take one between the check and
 * the node binding it. Each is checked free on loopback when picked.
 */
final class ReplicationPorts {

    private static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 200;

    private ReplicationPorts() {
    }

    static List<Integer> pick(int count) throws IOException {
        int below = ephemeralStart();
        List<Integer> ports = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS && ports.size() < count; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (!ports.contains(port) && free(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < count) {
            throw new IOException("no free loopback ports below " + below + " for replication");
        }
        return ports;
    }

    static int ephemeralStart() {
        try {
            String[] range = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            int start = Integer.parseInt(range[0]);
            return start > LOWEST + 1_000 ? start : DEFAULT_EPHEMERAL_START;
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START;
        }
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
