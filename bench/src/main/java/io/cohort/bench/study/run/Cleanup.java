package io.cohort.bench.study.run;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * What the run has started and must stop, newest first: clusters, the load driver, the embedded database. Closed
 * by the run when it ends, or by the JVM's shutdown hook on Ctrl-C or SIGTERM. Thread-safe; each thing is closed
 * once.
 */
final class Cleanup implements AutoCloseable {

    private final Deque<AutoCloseable> started = new ArrayDeque<>();

    synchronized <T extends AutoCloseable> T add(T resource) {
        started.push(resource);
        return resource;
    }

    /** Closes {@code resource} now and forgets it. */
    void close(AutoCloseable resource) {
        synchronized (this) {
            if (!started.remove(resource)) {
                return;
            }
        }
        closeQuietly(resource);
    }

    @Override
    public void close() {
        while (true) {
            AutoCloseable next;
            synchronized (this) {
                next = started.poll();
            }
            if (next == null) {
                return;
            }
            closeQuietly(next);
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            System.err.println("cohort bench: stopping " + resource + " failed: " + e);
        }
    }
}
