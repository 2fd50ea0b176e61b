package io.cohort.bench.study.run;

import java.util.OptionalDouble;

/**
 * Reads values from the Prometheus text exposition format that the nodes' {@code /metrics} serve. Only what
 * the bench needs: the sum of every series of one metric (all tags), e.g. {@code cohort_replication_bytes_total}
 * over both directions and every application.
 */
final class PrometheusText {

    /** Replication (or database session store) bytes, sent and received, of every application. */
    static final String REPLICATION_BYTES = "cohort_replication_bytes_total";
    /** Replication changes (sent and received) of every application. */
    static final String REPLICATION_CHANGES = "cohort_replication_changes_total";
    /** Replication messages (sent and received) of every application; one message may carry several changes. */
    static final String REPLICATION_MESSAGES = "cohort_replication_messages_total";
    /** The label that tells what a node sent from what it received. */
    static final String SENT = "direction=\"sent\"";
    /** A Tomcat peer node's cluster channel bytes, sent and received ({@code bench/tomcat}'s MetricsServlet). */
    static final String TOMCAT_CHANNEL_BYTES = "tomcat_tribes_bytes_total";
    /** Every interconnect byte counter the bench knows, one per kind of node. */
    static final java.util.List<String> INTERCONNECT_BYTES = java.util.List.of(REPLICATION_BYTES, TOMCAT_CHANNEL_BYTES);
    /** Micrometer's recent CPU use of the JVM process, 0..1 of the whole machine. */
    static final String PROCESS_CPU = "process_cpu_usage";
    /** Micrometer's number of processors available to the JVM. */
    static final String CPU_COUNT = "system_cpu_count";

    private PrometheusText() {
    }

    /** The sum of all series of every one of {@code metrics} the text has, or empty if it has none of them. */
    static OptionalDouble sumAny(String text, java.util.List<String> metrics) {
        double sum = 0;
        boolean found = false;
        for (String metric : metrics) {
            OptionalDouble value = sum(text, metric);
            if (value.isPresent()) {
                sum += value.getAsDouble();
                found = true;
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** The sum of all series of {@code metric}, or empty if the text has none. */
    static OptionalDouble sum(String text, String metric) {
        return sum(text, metric, "");
    }

    /**
     * The sum of the series of {@code metric} that carry {@code label}, one whole {@code name="value"} pair (e.g.
     * {@code direction="sent"}; empty: every series), or empty if the text has none of them.
     */
    static OptionalDouble sum(String text, String metric, String label) {
        double sum = 0;
        boolean found = false;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#' || !line.startsWith(metric)) {
                continue;
            }
            int after = metric.length();
            if (line.length() <= after || (line.charAt(after) != '{' && line.charAt(after) != ' ')) {
                continue; // another metric whose name starts the same
            }
            int valueStart = line.charAt(after) == '{' ? line.indexOf("} ", after) + 2 : after + 1;
            if (valueStart < 2) {
                continue;
            }
            if (!label.isEmpty() && !hasLabel(line.substring(after, valueStart - 1), label)) {
                continue;
            }
            String[] fields = line.substring(valueStart).trim().split("\\s+");
            try {
                double value = Double.parseDouble(fields[0]);
                if (!Double.isNaN(value)) {
                    sum += value;
                    found = true;
                }
            } catch (NumberFormatException e) {
                // not a sample line
            }
        }
        return found ? OptionalDouble.of(sum) : OptionalDouble.empty();
    }

    /** Whether {@code labels} ({@code {a="x",b="y"}}, or empty) holds {@code label} as one of its pairs. */
    private static boolean hasLabel(String labels, String label) {
        for (int at = labels.indexOf(label); at > 0; at = labels.indexOf(label, at + 1)) {
            char before = labels.charAt(at - 1);
            int end = at + label.length();
            char next = end < labels.length() ? labels.charAt(end) : '}';
            if ((before == '{' || before == ',') && (next == ',' || next == '}')) {
                return true;
            }
        }
        return false;
    }
}
