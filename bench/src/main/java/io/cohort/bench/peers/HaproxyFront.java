package io.cohort.bench.peers;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * HAProxy as a child process ({@code haproxy -db -f <dir>/haproxy.cfg}, output in {@code <dir>/haproxy.log})
 * with a {@link HaproxyConfig}. The configuration is checked with {@code haproxy -c} before the start, and
 * the start waits until the front port accepts connections. {@link #close} sends SIGTERM, then SIGKILL.
 * It is also stopped when this JVM exits normally or on SIGTERM without {@link #close}; after a SIGKILL
 * of this JVM it must be stopped by hand. The executable is {@code haproxy} on the PATH, or the one named by the environment variable
 * {@value #EXECUTABLE_ENV}; on Debian it is the package {@code haproxy}.
 */
public final class HaproxyFront implements FrontDoor {

    public static final String EXECUTABLE_ENV = "COHORT_HAPROXY";
    private static final Duration STOP_GRACE = Duration.ofSeconds(5);

    private final Process process;
    private final URI uri;
    /** HAProxy does not notice when its parent dies: this stops it when the bench JVM exits without close. */
    private final Thread stopAtExit;

    private HaproxyFront(Process process, URI uri) {
        this.process = process;
        this.uri = uri;
        this.stopAtExit = new Thread(process::destroyForcibly, "haproxy-stop-at-exit");
        Runtime.getRuntime().addShutdownHook(stopAtExit);
    }

    /** The HAProxy executable this launcher runs. */
    public static String executable() {
        String configured = System.getenv(EXECUTABLE_ENV);
        return configured == null || configured.isBlank() ? "haproxy" : configured;
    }

    /**
     * Writes the configuration into {@code dir}, checks it, starts HAProxy and waits for its port.
     *
     * @throws IOException if HAProxy is not installed, refuses the configuration, exits, or does not listen in time
     */
    public static HaproxyFront start(HaproxyConfig config, Path dir, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path cfg = dir.resolve("haproxy.cfg").toAbsolutePath();
        Path log = dir.resolve("haproxy.log").toAbsolutePath();
        Files.writeString(cfg, config.render());
        check(cfg, log);
        Process process = new ProcessBuilder(executable(), "-db", "-f", cfg.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        HaproxyFront front = new HaproxyFront(process, URI.create("http://127.0.0.1:" + config.port()));
        try {
            front.awaitListening(config.port(), timeout, log);
            return front;
        } catch (IOException | InterruptedException | RuntimeException e) {
            front.close();
            throw e;
        }
    }

    private static void check(Path cfg, Path log) throws IOException, InterruptedException {
        Process check;
        try {
            check = new ProcessBuilder(executable(), "-c", "-f", cfg.toString()).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
        } catch (IOException e) {
            throw new IOException("cannot run " + executable() + " (install the Debian package haproxy, or set "
                    + EXECUTABLE_ENV + "): " + e.getMessage(), e);
        }
        if (!check.waitFor(30, TimeUnit.SECONDS)) {
            check.destroyForcibly();
            throw new IOException("haproxy -c did not finish within 30 s");
        }
        if (check.exitValue() != 0) {
            throw new IOException("HAProxy refuses " + cfg + ":\n" + Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    private void awaitListening(int port, Duration timeout, Path log) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("HAProxy exited with code " + process.exitValue() + ": "
                        + String.join("\n", tail(log)));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("HAProxy does not listen on port " + port + " after " + timeout + "; see "
                            + log);
                }
                Thread.sleep(100);
            }
        }
    }

    private static List<String> tail(Path log) throws IOException {
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        return lines.subList(Math.max(0, lines.size() - 20), lines.size());
    }

    @Override
    public URI uri() {
        return uri;
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public void close() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopAtExit);
        } catch (IllegalStateException exiting) {
            // the JVM is shutting down: the hook runs anyway
        }
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(STOP_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
