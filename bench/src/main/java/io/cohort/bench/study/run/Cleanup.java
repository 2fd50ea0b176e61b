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
    private boolean closed;

    /**
     * Remembers {@code resource} to close it later. Once the cleanup has run (Ctrl-C while something was starting),
     * the resource is closed at once and the caller gets an {@link IllegalStateException}, so nothing outlives
     * the run.
     */
    <T extends AutoCloseable> T add(T resource) {
        synchronized (this) {
            if (!closed) {
                started.push(resource);
                return resource;
            }
        }
        closeQuietly(resource);
        throw new IllegalStateException("cohort bench is stopping");
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
        synchronized (this) {
            closed = true;
        }
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
