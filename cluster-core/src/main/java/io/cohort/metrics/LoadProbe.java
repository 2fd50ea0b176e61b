package io.cohort.metrics;

import java.lang.management.ManagementFactory;
import java.util.function.IntSupplier;

/**
 * Measures how much more load the node can take, for the balancer's {@code metric} policies.
 *
 * <p>Spare capacity is {@code 1 - max(thread pool utilisation, process CPU load)}, clamped to
 * [0, 1]: a node is as full as its most saturated resource. Process CPU (not machine CPU) is used so
 * that several nodes sharing one machine report their own share.
 */
public final class LoadProbe {

    private final IntSupplier busyThreads;
    private final IntSupplier maxThreads;
    private final IntSupplier activeRequests;
    private final com.sun.management.OperatingSystemMXBean os;

    public LoadProbe(IntSupplier busyThreads, IntSupplier maxThreads, IntSupplier activeRequests) {
        this.busyThreads = busyThreads;
        this.maxThreads = maxThreads;
        this.activeRequests = activeRequests;
        this.os = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class);
    }

    public LoadReport measure() {
        int busy = busyThreads.getAsInt();
        int max = Math.max(1, maxThreads.getAsInt());
        double cpu = Math.max(0, os.getProcessCpuLoad());
        double used = Math.max((double) busy / max, cpu);
        double spare = Math.min(1, Math.max(0, 1 - used));
        return new LoadReport(round(spare), activeRequests.getAsInt(), busy, max, round(cpu));
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }

    /**
     * @param spareCapacity 0 (saturated) to 1 (idle); what the balancer compares
     * @param activeRequests requests being handled now
     * @param busyThreads request threads in use
     * @param maxThreads size of the request thread pool
     * @param processCpu this process's share of the machine's CPU, 0 to 1
     */
    public record LoadReport(double spareCapacity, int activeRequests, int busyThreads, int maxThreads,
            double processCpu) {
    }
}
