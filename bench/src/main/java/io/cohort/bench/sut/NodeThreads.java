package io.cohort.bench.sut;

import java.util.List;

/**
 * What a node JVM's thread works on, told by its name as Linux keeps it ({@code /proc/<pid>/task/<tid>/comm}: the
 * first 15 bytes of the Java thread name). Lets a benchmark say where a node's CPU time went: into the pages
 * themselves, into replication's own threads, into garbage collection or into the JIT compilers.
 */
public enum NodeThreads {

    /**
     * Jetty's pool ({@code cohort-<node>-<n>}: request threads, acceptors, selectors). Work a request does itself
     * counts here, replication's share of it included: taking the change, serializing it and, for an idle send
     * lane, sending it.
     */
    REQUESTS,
    /**
     * Replication's own threads: Cohort's send lanes, membership, backup sweeper and rebalancer, and JGroups'
     * receivers, per-destination senders, pool, timer and server threads.
     */
    REPLICATION,
    /** The garbage collector's threads and the VM thread (safepoint operations). */
    GC,
    /** The C1 and C2 JIT compilers. */
    JIT,
    /** Every other thread (Jetty's scheduler and scanner, the database pool, the JVM's service threads). */
    OTHER,
    /** Threads that ended during the measured interval: their CPU time is known only from the process's total. */
    ENDED;

    private static final List<String> REPLICATION_PREFIXES = List.of("cohort-replicat", "cohort-membersh",
            "cohort-backup-", "cohort-rebalanc", "Connection.Rece", "pd-bundler", "jgroups-", "Timer runner",
            "TcpServer", "NioServer", "NioConnection", "FD_SOCK2", "Incoming-", "Merger", "ViewHandler");

    /** The kind of a live thread by its {@code comm} name. */
    public static NodeThreads of(String comm) {
        for (String prefix : REPLICATION_PREFIXES) {
            if (comm.startsWith(prefix)) {
                return REPLICATION;
            }
        }
        if (comm.startsWith("cohort-")) {
            return REQUESTS;
        }
        if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")) {
            return GC;
        }
        if (comm.contains("CompilerThre")) {
            return JIT;
        }
        return OTHER;
    }
}
