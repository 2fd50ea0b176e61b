package io.cohort.bench.balancer;

import java.util.List;

/**
 * One recorded wrk run: which round, which load, which target, in which position of the round, its
 * figures, and the CPU time the servers (the JVM with node and balancer, and HAProxy) spent per request meanwhile.
 */
public record Measurement(int round, int position, Load load, Target target, WrkResult result,
                          double serverCpuMicrosPerRequest) {

    /**
     * How hard wrk pushes. {@link #SATURATING} keeps every core busy (throughput); {@link #SINGLE} has
     * one request in flight at a time, so latency is the path's cost without queueing.
     */
    public enum Load {
        SATURATING("saturating"), SINGLE("single connection");

        private final String label;

        Load(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /** Where the load client sends its requests: the node itself, or a proxy in front of it. */
    public enum Target {
        DIRECT("direct"), BALANCER("balancer"), HAPROXY("haproxy");

        private final String label;

        Target(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        /** The proxies in front of the node: every target but {@link #DIRECT}. */
        public static List<Target> proxies() {
            return List.of(BALANCER, HAPROXY);
        }
    }

    public String csv() {
        return round + "," + position + "," + load.name().toLowerCase(java.util.Locale.ROOT) + "," + target.label() + ","
                + result.csv() + String.format(java.util.Locale.ROOT, ",%.1f", serverCpuMicrosPerRequest);
    }

    public static String csvHeader() {
        return "round,position,load,target," + WrkResult.csvHeader() + ",server_cpu_us_per_request";
    }
}
