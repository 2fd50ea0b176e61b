package io.cohort.balancer;

import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.io.EofException;

/**
 * One client request on its way through the balancer, across its attempts (at most one move to another member, and
 * up to {@link StaleConnection#MAX_RESENDS} sends again after a stale connection at each): where it was
 * sent, why, and how far the current attempt got (the facts the retry rule needs). Listens to the
 * member's answer to learn when it began, and to its request to learn whether it reached a connection
 * ({@link #onConnection}). Watches the client, while an attempt waits for the member's answer, for going away
 * ({@link #watchClient}). Fields are written by one attempt at a time.
 */
final class Exchange implements Response.BeginListener {

    static final String ATTRIBUTE = Exchange.class.getName();

    final SessionRoute session;
    /** The request target every attempt sends, from {@link UpstreamTarget#of}. */
    final String target;
    final boolean idempotent;
    /** The watch of the client's connection, or null when the request came through a connection that has none. */
    private final ClientGoneWatch clientWatch;
    Router.Route route;
    /** Attempts made, at any member, including the sends again after a stale connection. */
    int attempts;
    /** Sends again, at the same member, after the connection an attempt went out on turned out stale ({@link StaleConnection}). */
    int resends;
    /** When the current attempt was given to its member ({@link System#nanoTime}); its member's latency runs from it. */
    long attemptStartNanos;
    GuardedRequestContent content;
    /** The current attempt's request-timeout, made with its request to the member. */
    MemberDeadline deadline;
    /** The demand for the client's body that every attempt shares; made by the first attempt that sends a body. */
    private ClientBodyDemand bodyDemand;
    private volatile boolean answered;
    private volatile boolean clientWriteFailed;
    private volatile boolean clientWriting;
    private volatile boolean onConnection;
    private volatile boolean onReusedConnection;
    private volatile boolean clientLeft;
    private volatile boolean inFlight;

    Exchange(SessionRoute session, String target, boolean idempotent, ClientGoneWatch clientWatch) {
        this.session = session;
        this.target = target;
        this.idempotent = idempotent;
        this.clientWatch = clientWatch;
    }

    /** The demand for {@code client}'s body that every attempt of this exchange shares. */
    ClientBodyDemand bodyDemand(org.eclipse.jetty.server.Request client) {
        if (bodyDemand == null) {
            bodyDemand = new ClientBodyDemand(client);
        }
        return bodyDemand;
    }

    Backend backend() {
        return route.backend();
    }

    /** A new attempt at {@code next}: counts it in flight at its member. */
    void begin(Router.Route next) {
        route = next;
        attempts++;
        attemptStartNanos = System.nanoTime();
        answered = false;
        clientWriteFailed = false;
        clientWriting = false;
        onConnection = false;
        onReusedConnection = false;
        clientLeft = false;
        content = null;
        deadline = null;
        inFlight = true;
        next.backend().requestStarted();
        next.backend().meters().requests.increment();
    }

    /** The current attempt is over; idempotent. */
    void end() {
        if (deadline != null) {
            deadline.end();
        }
        if (inFlight) {
            inFlight = false;
            route.backend().requestEnded();
        }
        if (clientWatch != null) {
            clientWatch.stop(); // after inFlight: a watch that starts meanwhile sees the attempt over (watchClient)
        }
    }

    /**
     * Watches the client until the member's answer begins or the current attempt ends: should the client go away
     * meanwhile, {@code toMember} is aborted ({@link #clientLeft}), which closes its connection to the member. Call
     * only once the balancer reads no more of the client's request (see {@link ClientGoneWatch}).
     */
    void watchClient(org.eclipse.jetty.client.Request toMember) {
        if (clientWatch == null) {
            return;
        }
        clientWatch.start(() -> {
            clientLeft = true;
            toMember.abort(new EofException("the client closed its connection before the member answered"));
        });
        if (answered || !inFlight) {
            clientWatch.stop(); // the answer began, or the attempt ended, while the watch started
        }
    }

    /**
     * Whether the client went away while the current attempt waited for the member's answer (its request to the member
     * was then aborted for it): the attempt failed through the client, not the member.
     */
    boolean clientLeft() {
        return clientLeft;
    }

    /** Writing the member's answer to the client failed: the client went away or stopped reading. */
    void clientWriteFailed(boolean failed) {
        clientWriteFailed = failed;
    }

    /** Whether writing the member's answer to the client failed (then the member's answer was aborted for it). */
    boolean clientWriteFailed() {
        return clientWriteFailed;
    }

    /** A chunk of the member's answer is being written to the client ({@code true}) or was written ({@code false}). */
    void clientWriting(boolean writing) {
        clientWriting = writing;
    }

    /**
     * Whether a chunk of the member's answer waits to be written to the client: the member sends no more until it
     * is, so when the exchange times out meanwhile, the client (which stopped reading) held it up, not the member.
     */
    boolean clientWriting() {
        return clientWriting;
    }

    /**
     * HttpClient put the current attempt's request on a connection to its member: it fires a request's begin event
     * only then, never for a request that fails while it waits for a connection (one that could not be made).
     */
    void onConnection(org.eclipse.jetty.client.Request toMember) {
        onReusedConnection = StaleConnection.reused(toMember);
        onConnection = true;
    }

    /**
     * Whether the current attempt's request went out on a kept-alive connection that had carried an answer before (see
     * {@link StaleConnection#reused}), which the member may have closed just as the request was sent.
     */
    boolean onReusedConnection() {
        return onReusedConnection;
    }

    /** Attempts made at another member than the previous one: sends again after a stale connection are not among them. */
    int moves() {
        return attempts - resends - 1;
    }

    /**
     * Whether the current attempt's request was ever on a connection to its member. While it was not, the member
     * cannot have received any of it, whatever the failure was and however the JDK reported it.
     */
    boolean reachedConnection() {
        return onConnection;
    }

    /**
     * Whether the current attempt waits for more of the client's body (see {@link MemberDeadline#waitingForClient}):
     * a timeout meanwhile is the client's doing, not the member's.
     */
    boolean waitingForClientBody() {
        MemberDeadline current = deadline;
        return current != null && current.waitingForClient();
    }

    /** Whether the member began an answer. */
    boolean answered() {
        return answered;
    }

    /** Whether the client's body, if any, has been read (and so cannot be sent again). */
    boolean bodyTouched() {
        return content != null && content.touched();
    }

    /**
     * The failure reading the client's body ended with in this attempt, or null (see
     * {@link GuardedRequestContent#readFailure}): when set, the attempt failed through the client,
     * not the member.
     */
    Throwable clientBodyFailure() {
        return content == null ? null : content.readFailure();
    }

    @Override
    public void onBegin(Response response) {
        answered = true;
        if (clientWatch != null) {
            clientWatch.stop(); // from now on a client that goes away makes writing the answer fail
        }
        MemberDeadline current = deadline;
        if (current != null) {
            current.end(); // request-timeout bounds the member's time until it answers, not how long its answer streams
        }
        route.backend().answered();
    }
}
