package io.cohort.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports a process is told before it starts (replication and cluster receivers, a node's HTTP port, a
 * proxy's front port, an embedded database's port): a local cluster's launcher and the benchmarks need them before
 * their members run. They are taken below the kernel's ephemeral port range
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}), so that no socket bound to port 0 in the meantime (a node's
 * HTTP or admin connector, a client connection) can take one between the check and the node binding it. Each is
 * checked free on loopback when picked.
 */
public final class PresetPorts {

    private static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 200;

    private PresetPorts() {
    }

    /**
     * @return {@code count} distinct ports, each free on loopback when picked
     * @throws IOException if not enough free ports turned up in {@value #ATTEMPTS} attempts
     */
    public static List<Integer> pick(int count) throws IOException {
        int below = ephemeralStart();
        List<Integer> ports = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS && ports.size() < count; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (!ports.contains(port) && free(port)) {
                ports.add(port);
            }
        }
        if (ports.size() < count) {
            throw new IOException("no " + count + " free loopback ports below " + below);
        }
        return ports;
    }

    /** One port, as {@link #pick} picks them. */
    public static int one() throws IOException {
        return pick(1).get(0);
    }

    /** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
    public static int ephemeralStart() {
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
