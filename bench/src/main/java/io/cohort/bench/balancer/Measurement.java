package io.cohort.bench.balancer;

/**
 * One recorded wrk run: which round, which load, which target, in which position of the round, its
 * figures, and the CPU time the servers' JVM (node and balancer together) spent per request meanwhile.
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

    /** Where the load client sends its requests. */
    public enum Target {
        DIRECT("direct"), BALANCER("balancer");

        private final String label;

        Target(String label) {
            this.label = label;
        }

        public String label() {
            return label;
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
