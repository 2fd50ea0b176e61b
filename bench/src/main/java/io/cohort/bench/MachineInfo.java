package io.cohort.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** What a report says about the machine it was measured on. */
public record MachineInfo(String jdk, String os, String cpu, int cores, String loadAverage) {

    public static MachineInfo now() {
        String jdk = System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version");
        String os = System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch");
        return new MachineInfo(jdk, os, cpuModel(), Runtime.getRuntime().availableProcessors(), currentLoadAverage());
    }

    /** The 1, 5 and 15 minute load averages from {@code /proc/loadavg}, or "n/a". */
    public static String currentLoadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static String cpuModel() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/cpuinfo"));
            return lines.stream().filter(l -> l.startsWith("model name")).findFirst()
                    .map(l -> l.substring(l.indexOf(':') + 1).trim()).orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** Markdown lines for a report's "Machine" section. */
    public String markdown() {
        return "- JDK: " + jdk + "\n- OS: " + os + "\n- CPU: " + cpu + ", " + cores + " cores available to the JVM\n";
    }
}
