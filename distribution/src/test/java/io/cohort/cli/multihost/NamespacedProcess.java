package io.cohort.cli.multihost;

import io.cohort.cli.cluster.JavaCommand;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * For tests: a process started inside a network namespace ({@code ip netns exec}, which replaces
 * itself with the command, so the process is the command's own and SIGKILL reaches it), with its
 * output in a log file.
 *
 * @param name    what it is, for messages
 * @param process the process
 * @param log     its stdout and stderr
 */
record NamespacedProcess(String name, Process process, Path log) implements AutoCloseable {

    /** JVM options of nodes and balancers: small and quick to start on a busy two-core machine. */
    static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-Xshare:auto", "-Djava.net.preferIPv4Stack=true");

    /** Starts {@code cohort <arguments>} in a JVM inside the namespace. */
    static NamespacedProcess cohort(NetworkNamespaces lab, NetworkNamespaces.Host host, String name,
            List<String> jvmOptions, List<String> arguments, Map<String, String> environment, Path log)
            throws IOException {
        JavaCommand here = JavaCommand.current();
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.addAll(jvmOptions);
        JavaCommand java = new JavaCommand(here.java(), here.classPath(), options);
        return start(lab, host, name, java.command(arguments), environment, log);
    }

    static NamespacedProcess start(NetworkNamespaces lab, NetworkNamespaces.Host host, String name,
            List<String> command, Map<String, String> environment, Path log) throws IOException {
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(lab.inside(host, command))
                .redirectErrorStream(true)
                .redirectOutput(Redirect.to(log.toFile()));
        builder.environment().putAll(environment);
        return new NamespacedProcess(name, builder.start(), log);
    }

    /** SIGKILL, and wait until it is gone. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(10, TimeUnit.SECONDS);
    }

    /** The last lines of its log, for failure messages. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return name + " (" + log + "):\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return name + ": no log (" + e.getMessage() + ")";
        }
    }

    /** SIGTERM, a short grace, then SIGKILL. */
    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
