package io.cohort.cli.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The local addresses a Linux process listens on, as {@code /proc} shows them: the socket inodes among its file
 * descriptors, looked up in {@code /proc/net/tcp} and {@code tcp6} (hexadecimal addresses, state {@code 0A} = listen).
 */
final class ListeningSockets {

    private static final String LISTEN = "0A";

    private ListeningSockets() {
    }

    /** The hexadecimal local addresses (without port) of the process's listening TCP sockets. */
    static List<String> of(long pid) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:[")) {
                        inodes.add(target.substring("socket:[".length(), target.length() - 1));
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor went away while listing
                }
            }
        }
        List<String> addresses = new ArrayList<>();
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                if (fields[3].equals(LISTEN) && inodes.contains(fields[9])) {
                    addresses.add(fields[1].substring(0, fields[1].indexOf(':')));
                }
            }
        }
        return addresses;
    }

    /** Whether a hexadecimal address from {@code /proc/net/tcp[6]} is 127.0.0.1 (also IPv4-mapped) or ::1. */
    static boolean isLoopback(String hexAddress) {
        return hexAddress.equals("0100007F") || hexAddress.equals("0000000000000000FFFF00000100007F")
                || hexAddress.equals("00000000000000000000000001000000");
    }
}
