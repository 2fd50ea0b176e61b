package io.cohort.node.deploy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.ee10.servlet.SessionHandler;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.http.HttpCookie;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Stands in front of a redeployed application while the version it replaced finishes its in-flight
 * requests: that version still holds its users' sessions in memory, and would hand them to the session
 * store only when it stops. A request that names one of those sessions asks the old version to hand that
 * session over now ({@link Predecessor#handOver}: at once when none of the old version's requests uses it,
 * else when the last of them ends) and waits for it here, on its own thread and before Jetty looks the
 * session up; then the new version finds the session in the store instead of missing it (a new session for
 * the user) or, with replication, taking it over from the copies while the old version still owns it. It
 * does not wait for the old version's other requests, however long they run.
 *
 * <p>Requests without a session, or for a session the old version does not hold, pass at once. The
 * wait ends at the latest when the old version has stopped, and is bounded (the old version's stop is
 * itself bounded by {@code graceful-stop}, once for its drain and once for its hand-over); past the
 * bound, or when the hand-over failed, the request goes on. Thread-safe.
 */
final class HandoverGate extends Handler.Wrapper {

    /** The version being replaced, as the gate sees it. */
    interface Predecessor {

        /** Whether it holds the session with this id (without route) in memory, or is still handing it over. */
        boolean holds(String id);

        /**
         * Asks it to hand this session over ahead of its stop.
         *
         * @return completes once the new version can load the session; a stage that never completes means: wait for
         *     the old version's stop
         */
        CompletionStage<Void> handOver(String id);
    }

    private final CompletableFuture<Void> handedOver = new CompletableFuture<>();
    private final WebAppContext context;
    /** Null once handed over, so the new version does not keep the old one (and its class loader) reachable. */
    private volatile Predecessor predecessor;
    private final Duration bound;

    /**
     * @param context the new version
     * @param predecessor the old version
     * @param bound the longest a request waits
     */
    HandoverGate(WebAppContext context, Predecessor predecessor, Duration bound) {
        super(context);
        this.context = context;
        this.predecessor = predecessor;
        this.bound = bound;
    }

    /** The old version has stopped (or failed to): its sessions are in the store, nothing waits any more. */
    void handedOver() {
        predecessor = null;
        handedOver.complete(null);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Predecessor previous = predecessor;
        if (previous != null && !handedOver.isDone()) {
            List<CompletableFuture<Void>> sessions = requestedSessionIds(request).stream().filter(previous::holds)
                    .map(id -> previous.handOver(id).toCompletableFuture()).toList();
            if (!sessions.isEmpty()) {
                awaitHandover(CompletableFuture.allOf(sessions.toArray(CompletableFuture[]::new)));
            }
        }
        return super.handle(request, response, callback);
    }

    private void awaitHandover(CompletableFuture<Void> sessions) {
        try {
            CompletableFuture.anyOf(sessions, handedOver).get(bound.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            // not handed over in time, or the hand-over failed: the request goes on and loads what the store has
        }
    }

    /**
     * The session ids (without route) the request names, found where Jetty's session handler looks
     * for them: every session cookie (its name matched ignoring case) and every session path parameter.
     */
    private List<String> requestedSessionIds(Request request) {
        SessionHandler sessions = context.getSessionHandler();
        List<String> ids = new ArrayList<>(1);
        if (sessions.isUsingCookies()) {
            for (HttpCookie cookie : Request.getCookies(request)) {
                if (sessions.getSessionCookie().equalsIgnoreCase(cookie.getName())) {
                    ids.add(cookie.getValue());
                }
            }
        }
        String params = request.getHttpURI().getParam();
        String name = sessions.getSessionIdPathParameterName();
        if (sessions.isUsingUriParameters() && params != null && name != null) {
            for (String param : params.split(";")) {
                if (param.length() > name.length() + 1 && param.startsWith(name) && param.charAt(name.length()) == '=') {
                    ids.add(param.substring(name.length() + 1).trim());
                }
            }
        }
        ids.removeIf(String::isEmpty);
        ids.replaceAll(sessions.getSessionIdManager()::getId);
        return ids;
    }
}
