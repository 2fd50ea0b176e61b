package io.cohort.balancer;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.channels.ClosedChannelException;

/** What a failure of an exchange or a health check was, from its chain of causes. */
final class Failures {

    private Failures() {
    }

    /** What a failed attempt tells of its member's reachability. */
    enum ConnectFailure {
        /** The attempt was on a connection, or failed for the balancer's own reasons: nothing about the member. */
        NONE,
        /**
         * No connection could be made: refused, no route, a host name that never resolved (one that did is connected to
         * at its last address: {@link LastKnownAddresses}), the connect timeout. Down at once.
         */
        MEMBER_UNREACHABLE,
        /**
         * No connection was made, for another I/O reason ({@code ENETUNREACH} and {@code EHOSTDOWN} arrive as a plain
         * {@link java.net.SocketException}, but so does the balancer running out of file descriptors): counted as a
         * failed health check, at most one per check interval ({@link Backend#uncertainFailureCounts}), so repeated
         * ones take the member down after {@code fall} intervals.
         */
        UNCERTAIN
    }

    /**
     * What a failed attempt says about its member. Whether a connection was made is known from HttpClient's events
     * ({@code reachedConnection}: see {@link Exchange#reachedConnection}), not from the exception, since the JDK
     * reports a failed connect as whatever class the errno maps to. A request that never reached a connection failed
     * to connect if the failure is an I/O error, except those of the balancer itself: its HttpClient is stopping
     * ({@code clientRunning} false, queued requests fail with a {@link java.nio.channels.ClosedChannelException}), or
     * it has no local port left ({@link java.net.BindException}). HttpClient's own timeout and a full queue
     * ({@link java.util.concurrent.TimeoutException}, {@link java.util.concurrent.RejectedExecutionException}) are no
     * I/O errors. A connection that broke, even before the request's head was reported written, is not a failed
     * connection: the member may have read the whole request. (A failed TLS handshake happens on a connection, after
     * the request began: it is not a failed connect either.)
     */
    static ConnectFailure connectFailure(boolean reachedConnection, Throwable failure, boolean clientRunning) {
        if (reachedConnection || !clientRunning || !causedBy(failure, IOException.class)
                || causedBy(failure, ClosedChannelException.class, BindException.class)) {
            return ConnectFailure.NONE;
        }
        if (causedBy(failure, ConnectException.class, NoRouteToHostException.class, UnknownHostException.class,
                SocketTimeoutException.class)) {
            return ConnectFailure.MEMBER_UNREACHABLE;
        }
        return ConnectFailure.UNCERTAIN;
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
