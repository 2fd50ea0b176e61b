package io.cohort.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports a process is told before it starts (replication and cluster receivers, a node's HTTP port, a
 * proxy's front port, an embedded database's port): a local cluster's launcher and the benchmarks need them before
 * their members run. They are taken below the kernel's ephemeral port range
 * ({@code /proc/sys/net/ipv4/ip_local_port_range}), so that no socket bound to port 0 in the meantime (a node's
 * HTTP or admin connector, a client connection) can take one between the check and the node binding it. Each is
 * checked free on loopback when picked, and kept apart from the last {@value #REMEMBERED} ports picked in this
 * process: a replication port's JGroups transport binds one of the next {@value #TRANSPORT_RANGE} ports when its own
 * is taken ({@code port_range} of the built-in stacks), and its failure detector (FD_SOCK2) one of the 4 ports
 * {@value #FAILURE_DETECTION_OFFSET} above that, so no port is picked within {@value #TRANSPORT_RANGE} of another, or
 * {@value #FAILURE_DETECTION_OFFSET} to {@value #FAILURE_DETECTION_OFFSET} + {@value #TRANSPORT_RANGE} + 3 away: a
 * node's failure detector cannot take the port another node was told.
 */
public final class PresetPorts {

    private static final int LOWEST = 10_000;
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 200;
    static final int TRANSPORT_RANGE = 9;
    static final int FAILURE_DETECTION_OFFSET = 100;
    private static final int FAILURE_DETECTION_PORTS = 4;
    private static final int REMEMBERED = 128;
    /** The ports picked last in this process, oldest first. */
    private static final Deque<Integer> PICKED = new ArrayDeque<>();

    private PresetPorts() {
    }

    /**
     * @return {@code count} distinct ports, each free on loopback when picked and apart from the others picked in this
     *     process (class comment)
     * @throws IOException if not enough free ports turned up in {@value #ATTEMPTS} attempts
     */
    public static synchronized List<Integer> pick(int count) throws IOException {
        int below = ephemeralStart();
        List<Integer> ports = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS && ports.size() < count; attempt++) {
            int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
            if (PICKED.stream().noneMatch(picked -> neighbours(picked, port)) && free(port)) {
                ports.add(port);
                remember(port);
            }
        }
        if (ports.size() < count) {
            throw new IOException("no " + count + " free loopback ports below " + below);
        }
        return ports;
    }

    private static boolean neighbours(int a, int b) {
        int apart = Math.abs(a - b);
        return apart <= TRANSPORT_RANGE || (apart >= FAILURE_DETECTION_OFFSET
                && apart < FAILURE_DETECTION_OFFSET + TRANSPORT_RANGE + FAILURE_DETECTION_PORTS);
    }

    private static void remember(int port) {
        PICKED.addLast(port);
        if (PICKED.size() > REMEMBERED) {
            PICKED.removeFirst();
        }
    }

    /** One port, as {@link #pick} picks them. */
    public static int one() throws IOException {
        return pick(1).get(0);
    }

    /** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
    public static int ephemeralStart() {
        try {
            // read line by line: Files.readString returned "3" for this file's "32768\t60999" here (JDK 17, a /proc file
            // of no stated size), which made every machine look like the default
            String[] range = String.join(" ", Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")))
                    .trim().split("\\s+");
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
