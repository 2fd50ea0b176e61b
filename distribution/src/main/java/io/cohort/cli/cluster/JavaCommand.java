package io.cohort.cli.cluster;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How to start another JVM that runs the {@code cohort} command: the same {@code java}, the same
 * class path and the JVM options worth passing on. Passed on are system properties ({@code -D}, e.g.
 * {@code -Dlogback.configurationFile}) and memory and VM flags ({@code -X}, {@code -XX:}) of this
 * JVM; never debugger, agent, flight-recorder or remote-JMX options, which would clash between processes (a second
 * JVM on the same JMX port, for one, does not start).
 *
 * @param java       the java executable
 * @param classPath  the class path
 * @param jvmOptions options placed before the main class
 */
public record JavaCommand(Path java, String classPath, List<String> jvmOptions) {

    public static final String MAIN_CLASS = "io.cohort.cli.Main";

    public JavaCommand {
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(classPath, "classPath");
        jvmOptions = List.copyOf(jvmOptions);
    }

    /** This JVM's java, class path ({@code java.class.path}) and forwardable options. */
    public static JavaCommand current() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> options = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(JavaCommand::forwardable)
                .toList();
        return new JavaCommand(java, System.getProperty("java.class.path"), options);
    }

    static boolean forwardable(String option) {
        if (option.startsWith("-Xdebug") || option.startsWith("-Xrunjdwp") || option.startsWith("-Xlog")
                || option.startsWith("-XX:Flight") || option.startsWith("-XX:StartFlightRecording")
                || option.startsWith("-Dcom.sun.management.jmxremote")) {
            return false;
        }
        return option.startsWith("-D") || option.startsWith("-X");
    }

    /** The command line that runs {@code cohort <arguments>} in a new JVM. */
    public List<String> command(List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(MAIN_CLASS);
        command.addAll(arguments);
        return command;
    }
}
