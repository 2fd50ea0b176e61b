package io.cohort.balancer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code X-Forwarded-For} values are read as IP literals without any resolver ({@link io.cohort.net.IpLiteral}): what is no literal
 * is never looked up, so it cannot block a selector thread on DNS, nor become an address because a resolver knows
 * the name.
 */
@Timeout(60)
class ForwardedForLiteralTest {

    /**
     * In a JVM whose resolver knows {@code 999.1.2.3} (a hosts file, {@code jdk.net.hosts.file}), such a value from a
     * trusted proxy is still no address: a lookup would have made it the client's, and on a real network it asks DNS.
     */
    @Test
    void aNameThatLooksLikeAnAddressIsNeverLookedUp(@TempDir Path dir) throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "192.0.2.77 999.1.2.3\n192.0.2.78 300.300.300.300\n");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djdk.net.hosts.file=" + hosts, "-cp", System.getProperty("java.class.path"), ForwardedForProbe.class.getName(),
                "127.0.0.0/8", "127.0.0.1"));
        command.addAll(List.of("999.1.2.3", "300.300.300.300", "203.0.113.9, 999.1.2.3", "198.51.100.4"));
        Path errors = dir.resolve("stderr");
        Process probe = new ProcessBuilder(command).redirectError(errors.toFile()).start();
        String output;
        try {
            output = readAll(probe);
        } finally {
            probe.destroyForcibly();
        }

        assertThat(output.lines().toList()).as("the client of each X-Forwarded-For value from 127.0.0.1 (stderr: %s)",
                Files.readString(errors)).containsExactly(
                "999.1.2.3 -> 127.0.0.1", "300.300.300.300 -> 127.0.0.1", "203.0.113.9, 999.1.2.3 -> 127.0.0.1",
                "198.51.100.4 -> 198.51.100.4");
    }

    private static String readAll(Process process) throws IOException, InterruptedException {
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            throw new AssertionError("the probe JVM did not end within 40 s");
        }
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
}
