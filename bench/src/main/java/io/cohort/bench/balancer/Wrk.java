package io.cohort.bench.balancer;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** The load client: {@code wrk} with fixed threads, connections and duration, always with {@code --latency}. */
public record Wrk(int threads, int connections, Duration duration) {

    public static final String INSTALL_HINT = "wrk is not installed; on Debian/Ubuntu: sudo apt-get install -y wrk";

    /** Whether an executable {@code wrk} is on the PATH. */
    public static boolean installed() {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(File.pathSeparator)) {
            File candidate = new File(dir, "wrk");
            if (candidate.isFile() && candidate.canExecute()) {
                return true;
            }
        }
        return false;
    }

    public List<String> command(URI target) {
        List<String> command = new ArrayList<>();
        command.add("wrk");
        command.add("-t" + threads);
        command.add("-c" + connections);
        command.add("-d" + duration.toSeconds() + "s");
        command.add("--timeout");
        command.add("5s");
        command.add("--latency");
        command.add(target.toString());
        return command;
    }

    /** Runs wrk against {@code target} and returns its output (stdout and stderr). */
    public String run(URI target) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command(target)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int status = process.waitFor();
        if (status != 0) {
            throw new IOException("wrk exited with " + status + ":\n" + output);
        }
        return output;
    }
}
