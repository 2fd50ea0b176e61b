package io.cohort.balancer;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.Request;

/**
 * A kept-alive connection to a member that the member closed (its idle timeout ran out, it restarted gracefully) at the
 * moment the balancer took it from HttpClient's pool and sent a request on it: the balancer reads the end of the
 * connection instead of an answer. That is no failure of the member, which may well never have seen the request, and
 * a request that can safely run twice is sent to the same member again, as nginx does after a failure on a cached
 * connection. This class tells the two facts that call apart: the request went out on a connection that had carried
 * an answer before ({@link #reused}), and it failed as such a connection does ({@link #endedUnderIt}). Stateless.
 */
final class StaleConnection {

    /** At most this many sends of one request again after stale connections, before the failure counts as the member's. */
    static final int MAX_RESENDS = 2;

    private StaleConnection() {
    }

    /**
     * Whether {@code sent}, which has just been put on a connection (call from its begin event), went out on a connection
     * that had carried a whole answer before: one taken from the pool, not one opened for it. A connection of another
     * kind than HttpClient's HTTP/1.1 one counts as new.
     */
    static boolean reused(Request sent) {
        return sent.getConnection() instanceof org.eclipse.jetty.io.Connection connection && connection.getMessagesIn() > 0;
    }

    /**
     * Whether a request that got no answer failed as one on a connection closed under it does: with an I/O failure
     * (the end of the stream, a reset, a write to a closed socket), not with a timeout, which says the member took
     * the request and did not answer.
     */
    static boolean endedUnderIt(Throwable failure) {
        return Failures.causedBy(failure, IOException.class) && !Failures.causedBy(failure, TimeoutException.class);
    }
}
