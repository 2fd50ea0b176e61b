package io.cohort.bench.jmeter;

import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An Apache JMeter installation ({@code JMETER_HOME}: {@code bin/ApacheJMeter.jar},
 * {@code bin/jmeter.properties}, {@code lib/}, {@code lib/ext/}) and how to run a plan with it in
 * non-GUI mode, in a JVM of its own: JMeter's libraries (slf4j 1.7, log4j, its own Jackson) never
 * share a class path with Cohort's. bench's build lays one out from Maven Central in
 * {@code bench/jmeter-runtime/target/jmeter}.
 *
 * @param home the installation directory
 */
record JMeter(Path home) {

    /** The system property through which the build tells the tests where JMeter is. */
    static final String HOME_PROPERTY = "cohort.jmeter.home";

    JMeter {
        Objects.requireNonNull(home, "home");
    }

    /** The installation the build names in {@value #HOME_PROPERTY}; fails saying how to get one. */
    static JMeter fromBuild() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null) {
            throw new IllegalStateException(HOME_PROPERTY + " is not set; run the test through Maven (./mvnw -pl bench -am verify)");
        }
        JMeter jmeter = new JMeter(Path.of(home));
        if (!Files.isRegularFile(jmeter.launcher()) || !Files.isRegularFile(jmeter.home().resolve("bin/jmeter.properties"))) {
            throw new IllegalStateException("no JMeter installation in " + home + "; bench/jmeter-runtime lays it out: "
                    + "./mvnw -pl bench -am verify (or -pl bench/jmeter-runtime generate-resources)");
        }
        return jmeter;
    }

    /** {@code bin/ApacheJMeter.jar}: JMeter's launcher, which takes its parent's parent as JMETER_HOME. */
    Path launcher() {
        return home.resolve("bin").resolve("ApacheJMeter.jar");
    }

    /**
     * Runs {@code jmeter -n -t plan -l <workDir>/results.jtl -j <workDir>/jmeter.log -Jname=value...}
     * and waits for it. A run still going after {@code timeout} is killed and reported as such.
     *
     * @param plan       the test plan
     * @param workDir    where the results, JMeter's log and its console output go
     * @param properties JMeter properties ({@code -J}) for the plan
     * @param timeout    how long the run may take in all, JMeter's start and end included
     */
    Run runNonGui(Path plan, Path workDir, Map<String, String> properties, Duration timeout)
            throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path jtl = workDir.resolve("results.jtl");
        Path log = workDir.resolve("jmeter.log");
        Path console = workDir.resolve("console.txt");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-Djava.awt.headless=true", "-jar", launcher().toString(),
                "-n", "-t", plan.toAbsolutePath().toString(), "-l", jtl.toString(), "-j", log.toString()));
        properties.forEach((name, value) -> command.add("-J" + name + "=" + value));
        Process process = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(Redirect.to(console.toFile()))
                .start();
        try {
            boolean finished = process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return new Run(finished ? Outcome.EXITED : Outcome.KILLED_AFTER_TIMEOUT,
                    finished ? process.exitValue() : -1, jtl, log, console);
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** How a run ended. */
    enum Outcome { EXITED, KILLED_AFTER_TIMEOUT }

    /**
     * A finished run of JMeter.
     *
     * @param outcome  whether JMeter exited by itself
     * @param exitCode its exit code, -1 if it was killed
     * @param jtl      the results file (CSV, JMeter's default format)
     * @param log      JMeter's log
     * @param console  what JMeter printed
     */
    record Run(Outcome outcome, int exitCode, Path jtl, Path log, Path console) {

        /** Whether JMeter ran the plan to its end and exited with 0. */
        boolean succeeded() {
            return outcome == Outcome.EXITED && exitCode == 0;
        }

        /** The run's outcome with JMeter's console output and the end of its log, for assertion messages. */
        String describe() {
            return outcome + " with exit code " + exitCode + "\n--- console:\n" + read(console)
                    + "\n--- end of jmeter.log:\n" + tail(read(log), 60);
        }

        private static String read(Path file) {
            try {
                return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "(none)";
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        private static String tail(String text, int lines) {
            List<String> all = text.lines().toList();
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        }
    }
}
