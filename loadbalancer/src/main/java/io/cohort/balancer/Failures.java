package io.cohort.balancer;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;

/** What a failure of an exchange or a health check was, from its chain of causes. */
final class Failures {

    private Failures() {
    }

    /**
     * Whether no connection to the member was made, so it cannot have received anything: refused, no route, an
     * unknown host, or Jetty's connect timeout (a {@link SocketTimeoutException}; its other timeouts are
     * {@link java.util.concurrent.TimeoutException}s). A connection that broke, even before the request's head was
     * reported written, is not one: the member may have read the whole request.
     */
    static boolean neverConnected(Throwable failure) {
        return causedBy(failure, ConnectException.class, NoRouteToHostException.class, UnknownHostException.class,
                SocketTimeoutException.class);
    }

    /** Whether {@code failure} or one of its causes is an instance of one of {@code kinds}. */
    @SafeVarargs
    static boolean causedBy(Throwable failure, Class<? extends Throwable>... kinds) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            for (Class<? extends Throwable> kind : kinds) {
                if (kind.isInstance(t)) {
                    return true;
                }
            }
        }
        return false;
    }
}
