package io.cohort.balancer;

import org.eclipse.jetty.server.Request;

/**
 * The demand for more of a client's request body, shared by every attempt to send that request to a member. Jetty
 * allows one pending demand per request, and an attempt that failed before it read anything (its member dropped the
 * connection while the body had not arrived yet) leaves its demand pending: the retry's own demand would then be
 * refused. Here every attempt demands through one relay that keeps at most one demand on the client's request and,
 * when it fires, runs the callback of the attempt that demanded last; a failed attempt's callback is dropped
 * ({@link #cancel}), so it never reads a chunk that the retry must send. Thread-safe.
 */
final class ClientBodyDemand {

    private final Request client;
    private Runnable waiting;
    private boolean pending;

    ClientBodyDemand(Request client) {
        this.client = client;
    }

    /** Runs {@code callback} once more of the body can be read, replacing the callback of an earlier attempt. */
    void demand(Runnable callback) {
        boolean demandNow;
        synchronized (this) {
            waiting = callback;
            demandNow = !pending;
            pending = true;
        }
        if (demandNow) {
            client.demand(this::fire);
        }
    }

    /**
     * The client's request, its demands made here: for reading the rest of its body once the attempts have ended (an
     * earlier attempt's demand may still be pending, and Jetty would refuse a second one).
     */
    Request request() {
        return new Request.Wrapper(client) {
            @Override
            public void demand(Runnable callback) {
                ClientBodyDemand.this.demand(callback);
            }
        };
    }

    /** The attempt that demanded last has failed: its callback is not run. */
    synchronized void cancel() {
        waiting = null;
    }

    private void fire() {
        Runnable callback;
        synchronized (this) {
            pending = false;
            callback = waiting;
            waiting = null;
        }
        if (callback != null) {
            callback.run();
        }
    }
}
