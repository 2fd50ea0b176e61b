package io.cohort.cli.multihost;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * For tests: "hosts" made of Linux network namespaces joined by a bridge, each with its own IPv4
 * address on a private /24, and the test's own (root) namespace on the bridge too so that it can
 * reach them. Needs root and iproute2's {@code ip}.
 *
 * <p>Every name it creates (namespaces, bridge, veth ends, {@code /etc/netns/<ns>/} directories)
 * starts with {@code cnt<pid>}, the pid of this JVM, so that concurrent runs never touch each
 * other and a later run can recognise and remove what a crashed run left behind ({@link
 * #removeLeftovers}: names whose pid is no longer alive). {@link #close} kills every process still
 * in its namespaces, then removes namespaces, links and directories; it is idempotent and tries
 * every step even when one fails.
 */
final class NetworkNamespaces implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespaces.class);
    private static final String PREFIX = "cnt";
    private static final Pattern OURS = Pattern.compile("^" + PREFIX + "(\\d+)[-bv]");
    private static final long COMMAND_SECONDS = 20;

    /** One namespace: its name, its address on the bridge, and the bridge end of its link. */
    record Host(String namespace, String address, String link) {
    }

    private final String tag;
    private final String subnet;
    private final List<Host> hosts = new ArrayList<>();
    private boolean bridgeCreated;

    private NetworkNamespaces(String tag, String subnet) {
        this.tag = tag;
        this.subnet = subnet;
    }

    /**
     * Why namespaces cannot be made here, or empty when they can: checks the operating system, the
     * {@code ip} command and root, then creates and deletes a probe namespace.
     */
    static Optional<String> unavailable() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        if (ipCommand().isEmpty()) {
            return Optional.of("the `ip` command (iproute2) is not on the PATH or in /sbin, /usr/sbin");
        }
        if (!isRoot()) {
            return Optional.of("creating network namespaces needs root; this JVM runs as user "
                    + System.getProperty("user.name"));
        }
        String probe = PREFIX + ProcessHandle.current().pid() + "-probe";
        try {
            run("ip", "netns", "add", probe);
            run("ip", "netns", "delete", probe);
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("`ip netns add` fails as root: " + e.getMessage());
        }
    }

    static boolean isRoot() {
        try {
            return Files.readAllLines(Path.of("/proc/self/status")).stream()
                    .filter(line -> line.startsWith("Uid:"))
                    .anyMatch(line -> line.split("\\s+")[1].equals("0"));
        } catch (IOException e) {
            return false;
        }
    }

    static Optional<Path> ipCommand() {
        return executable("ip");
    }

    /** An executable on the PATH or in the usual system directories. */
    static Optional<Path> executable(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, name)).filter(Files::isExecutable).findFirst();
    }

    /**
     * Creates a bridge with an address on a free private /24 in this namespace and {@code count}
     * namespaces {@code <tag>-1 .. <tag>-count} plugged into it, addresses {@code .1 .. .count}.
     * On failure everything made so far is removed again.
     */
    static NetworkNamespaces create(int count) throws IOException {
        removeLeftovers();
        long pid = ProcessHandle.current().pid();
        NetworkNamespaces lab = new NetworkNamespaces(PREFIX + pid, freeSubnet(pid));
        try {
            lab.build(count);
            return lab;
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    private void build(int count) throws IOException {
        String bridge = tag + "b";
        run("ip", "link", "add", bridge, "type", "bridge");
        bridgeCreated = true;
        // multicast floods to every port: no IGMP querier runs on this bridge
        run("ip", "link", "set", bridge, "type", "bridge", "mcast_snooping", "0");
        run("ip", "addr", "add", subnet + ".254/24", "dev", bridge);
        run("ip", "link", "set", bridge, "up");
        for (int k = 1; k <= count; k++) {
            Host host = new Host(tag + "-" + k, subnet + "." + k, tag + "v" + k);
            hosts.add(host);
            run("ip", "netns", "add", host.namespace());
            run("ip", "link", "add", host.link(), "type", "veth", "peer", "name", "eth0", "netns", host.namespace());
            run("ip", "link", "set", host.link(), "master", bridge, "up");
            run("ip", "-n", host.namespace(), "addr", "add", host.address() + "/24", "dev", "eth0");
            run("ip", "-n", host.namespace(), "link", "set", "lo", "up");
            run("ip", "-n", host.namespace(), "link", "set", "eth0", "up");
            // a route for multicast out of eth0 (JGroups UDP also sets the interface itself)
            run("ip", "-n", host.namespace(), "route", "add", "224.0.0.0/4", "dev", "eth0");
        }
    }

    List<Host> hosts() {
        return List.copyOf(hosts);
    }

    Host host(int number) {
        return hosts.get(number - 1);
    }

    /** This namespace's address on the bridge. */
    String gateway() {
        return subnet + ".254";
    }

    /**
     * Makes {@code /etc/resolv.conf} inside the namespace name this server ({@code ip netns exec}
     * bind-mounts {@code /etc/netns/<ns>/resolv.conf} over it for the processes it starts).
     */
    void useNameServer(Host host, String address) throws IOException {
        Path dir = Path.of("/etc/netns", host.namespace());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("resolv.conf"), "nameserver " + address + "\noptions timeout:1 attempts:2\n",
                StandardCharsets.US_ASCII);
    }

    /** The command line that runs {@code command} inside the namespace. */
    List<String> inside(Host host, List<String> command) {
        List<String> full = new ArrayList<>(List.of(ipCommand().orElseThrow().toString(), "netns", "exec", host.namespace()));
        full.addAll(command);
        return full;
    }

    /** Cuts the namespace off the bridge (its link goes down: packets are lost, nothing is refused). */
    void cut(Host host) throws IOException {
        run("ip", "link", "set", host.link(), "down");
    }

    /** Plugs it in again. */
    void restore(Host host) throws IOException {
        run("ip", "link", "set", host.link(), "up");
    }

    @Override
    public void close() {
        for (Host host : hosts) {
            removeNamespace(host.namespace());
        }
        if (bridgeCreated) {
            quietly("ip", "link", "delete", tag + "b");
        }
        hosts.clear();
        bridgeCreated = false;
    }

    /** Removes namespaces, links and {@code /etc/netns} directories of runs whose JVM is gone. */
    static void removeLeftovers() {
        try {
            for (String namespace : names(List.of("ip", "netns", "list"))) {
                if (orphaned(namespace)) {
                    LOG.warn("Removing network namespace {} left by a run that is gone", namespace);
                    removeNamespace(namespace);
                }
            }
            for (String link : names(List.of("ip", "-o", "link", "show"))) {
                if (orphaned(link)) {
                    LOG.warn("Removing link {} left by a run that is gone", link);
                    quietly("ip", "link", "delete", link);
                }
            }
            Path netns = Path.of("/etc/netns");
            if (Files.isDirectory(netns)) {
                try (Stream<Path> dirs = Files.list(netns)) {
                    for (Path dir : dirs.filter(d -> orphaned(d.getFileName().toString())).toList()) {
                        deleteTree(dir);
                    }
                }
            }
        } catch (IOException e) {
            LOG.warn("Could not look for leftovers of earlier runs: {}", e.getMessage());
        }
    }

    private static List<String> names(List<String> command) throws IOException {
        List<String> names = new ArrayList<>();
        for (String line : run(command.toArray(String[]::new)).split("\n")) {
            String text = line.strip();
            // `ip -o link` lines are "7: name@peer: <...>"; `ip netns list` lines are "name (id: 3)"
            Matcher numbered = Pattern.compile("^\\d+:\\s+([^:@\\s]+)").matcher(text);
            String name = numbered.find() ? numbered.group(1) : text.split("\\s+")[0];
            if (name.startsWith(PREFIX)) {
                names.add(name);
            }
        }
        return names;
    }

    private static boolean orphaned(String name) {
        Matcher m = OURS.matcher(name);
        if (!m.find()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
    }

    private static void removeNamespace(String namespace) {
        try {
            for (String pid : run("ip", "netns", "pids", namespace).split("\\s+")) {
                if (!pid.isBlank()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
            }
        } catch (IOException e) {
            LOG.debug("No processes listed in {}: {}", namespace, e.getMessage());
        }
        quietly("ip", "netns", "delete", namespace);
        try {
            deleteTree(Path.of("/etc/netns", namespace));
        } catch (IOException e) {
            LOG.warn("Could not remove /etc/netns/{}: {}", namespace, e.getMessage());
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A /24 under 10.213.0.0/16 that no route of this namespace covers yet. */
    private static String freeSubnet(long pid) throws IOException {
        String routes = run("ip", "-4", "route", "show");
        for (int i = 0; i < 250; i++) {
            String candidate = "10.213." + (int) ((pid + i) % 250 + 1);
            if (!routes.contains(candidate + ".")) {
                return candidate;
            }
        }
        throw new IOException("no free /24 under 10.213.0.0/16 for the test bridge");
    }

    private static void quietly(String... command) {
        try {
            run(command);
        } catch (IOException e) {
            LOG.warn("Cleanup step failed: {}", e.getMessage());
        }
    }

    /** Runs a command to completion; fails with its output when it exits non-zero or takes too long. */
    static String run(String... command) throws IOException {
        List<String> line = new ArrayList<>(List.of(command));
        if (line.get(0).equals("ip")) {
            line.set(0, ipCommand().orElseThrow(() -> new IOException("no `ip` command")).toString());
        }
        Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
        try {
            if (!process.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IOException(String.join(" ", command) + ": no answer within " + COMMAND_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited with " + process.exitValue() + ": "
                    + output.strip());
        }
        return output;
    }
}
