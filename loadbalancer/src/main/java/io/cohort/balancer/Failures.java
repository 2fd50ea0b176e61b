package io.cohort.balancer;

import java.io.IOException;

/** What a failure of an exchange or a health check was, from its chain of causes. */
final class Failures {

    private Failures() {
    }

    /**
     * Whether an attempt failed because no connection to its member could be made: its request never reached a
     * connection ({@code reachedConnection} false: see {@link Exchange#reachedConnection}), so the member received
     * nothing, and the failure is an I/O error. Whether a connection was made is known from HttpClient's events, not
     * from the exception: the JDK reports a failed connect as whatever class the errno maps to ({@code ECONNREFUSED} a
     * {@link java.net.ConnectException}, {@code EHOSTUNREACH} a {@link java.net.NoRouteToHostException},
     * {@code ENETUNREACH} or {@code EHOSTDOWN} a plain {@link java.net.SocketException}), besides an unknown host, Jetty's
     * connect timeout (a {@link java.net.SocketTimeoutException}) or a failed TLS handshake; a list of classes misses
     * some. All of them are {@link IOException}s, and that one test of the type remains because HttpClient also fails
     * a request that waits for a connection for reasons that say nothing about the member: its own timeout ran out
     * ({@link java.util.concurrent.TimeoutException}), its queue was full or it is stopping
     * ({@link java.util.concurrent.RejectedExecutionException}). A connection that broke, even before the request's
     * head was reported written, is not a failed connection: the member may have read the whole request.
     */
    static boolean connectFailed(boolean reachedConnection, Throwable failure) {
        return !reachedConnection && causedBy(failure, IOException.class);
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
