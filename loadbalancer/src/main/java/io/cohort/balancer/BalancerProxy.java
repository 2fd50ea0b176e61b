package io.cohort.balancer;

import io.cohort.config.BalancerConfig;
import io.cohort.config.MemberLimitsConfig;
import io.cohort.net.LingeringClose;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HostPortHttpField;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.proxy.ProxyHandler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.HostPort;
import org.eclipse.jetty.util.thread.Invocable;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reverse proxy: Jetty's {@link ProxyHandler} (non-blocking, pooled keep-alive HTTP/1.1
 * connections through {@link HttpClient}) with Cohort's routing, retries and hygiene.
 *
 * <p>Before routing it refuses what a reverse proxy must not do: CONNECT (405), a request whose
 * target is an absolute URI for another host than the balancer's own or than its Host header
 * (403: the balancer is no forward proxy), a declared body over the limit (413), and a target it
 * cannot pass on (400: not origin form, or a malformed percent-escape; see {@link UpstreamTarget},
 * which also percent-encodes what members are sent). It only ever connects to configured members.
 * These refusals, and the other answers it gives before it has read the whole body (413 for a streamed body
 * past the limit, 503 without a member or over {@code max-queued-per-member}, 429 from
 * {@link RequestRateLimit}, and once an attempt failed during an upload 502/504, or 408/400 for the client's
 * body), read and drop the rest of the body before the connection closes
 * ({@link ErrorPage#refuse}), so that a client still sending it reads the answer instead of a reset.
 *
 * <p>Retries: an attempt that got no answer is retried once, on another live member, when that
 * cannot run the request twice: none of its body was read, and either it never reached the member
 * (it was never on a connection: the connection failed, however the JDK reported it) or it is idempotent
 * (GET, HEAD, OPTIONS, PUT, DELETE). A member whose connection failed is marked down at once. A timeout is
 * never retried (504). {@code request-timeout} is the member's time ({@link MemberDeadline}): it does not run
 * while the balancer waits for the client's body, so a slow but steady upload is not cut off, and a client that
 * stops sending is timed out by its connection's idle timeout (408). An
 * attempt that failed because the client's body could not be read (it ended early, stalled, was
 * malformed or grew past the limit) is the client's failure: it counts against no member (no
 * error, no health change) and is not retried. A request HttpClient refuses to queue because
 * {@code max-queued-per-member} already wait for its member's connections is the balancer's own
 * overload: 503 with {@code Retry-After}, no member error, no retry. Before any of that, a request that could run twice
 * (idempotent, none of its body read) whose attempt went out on a kept-alive connection from the pool that ended under
 * it before any answer is sent to the same member again, at most {@link StaleConnection#MAX_RESENDS} times: the member
 * closed an idle connection as the balancer took it, which is no failure of the member (no error, no health change,
 * and no move of the session away from its owner).
 *
 * <p>A client that goes away (closes or resets its connection) while its request waits for the member's answer takes
 * the member's request with it, as nginx does: the request to the member is aborted, which closes that connection and
 * frees it for others, and the client's connection is closed without an answer ({@link ClientGoneWatch}). That counts
 * in {@code cohort_balancer_client_aborted_total}, against no member (no error, no health change), and is not retried.
 * It is watched for from when the balancer has read the whole request (also while it waits for a connection to its
 * member) until the member's answer begins; after that, writing the answer to a client that left fails.
 *
 * <p>Nothing on the request path blocks: routing reads in-memory state, bodies move by demand and
 * callbacks, error pages are written asynchronously. The handler and the client's response
 * listeners are therefore declared {@link Invocable.InvocationType#NON_BLOCKING non-blocking}, so
 * Jetty runs them on the thread that read the bytes instead of handing every request and every
 * answer to another pool thread. Code added here must keep that promise: anything that may block
 * (I/O, locks held across I/O, waiting) would stall a selector.
 */
final class BalancerProxy extends ProxyHandler {

    private static final Logger LOG = LoggerFactory.getLogger(BalancerProxy.class);
    static final String ROUTED_HEADER = "X-Cohort-Routed";
    /**
     * Room for what the balancer adds to a member's answer head: {@code X-Cohort-Routed}, {@code Via}, {@code Date}. The
     * proxy connector can write a head of {@code max-member-header-size} plus this (see {@link BalancerServer}), so an
     * answer the balancer took is never refused when it is passed on.
     */
    static final int OWN_RESPONSE_HEADERS = 4 * 1024;

    private final BalancerConfig config;
    private final Router router;
    /** The router's member tests, made once: a request's session route is read with them. */
    private final Predicate<String> liveMember;
    private final Predicate<String> member;
    private final BalancerMetrics metrics;
    private final long maxBody;
    /** Seconds a client is asked to wait ({@code Retry-After}) when the queue for its member was full. */
    private static final String OVERLOADED_RETRY_AFTER = "1";

    private final ForwardedHeaders forwarded;
    private final LastKnownAddresses addresses;
    private final AtomicBoolean overloadLogged = new AtomicBoolean();

    BalancerProxy(BalancerConfig config, Router router, BalancerMetrics metrics, ForwardedHeaders forwarded,
                  LastKnownAddresses addresses) {
        this.config = config;
        this.addresses = addresses;
        this.forwarded = forwarded;
        this.router = router;
        this.liveMember = router::isLiveMember;
        this.member = router::isMember;
        this.metrics = metrics;
        this.maxBody = config.maxRequestBody().bytes();
        setViaHost(config.name());
    }

    @Override
    protected HttpClient newHttpClient() {
        ClientConnector connector = new ClientConnector();
        connector.setConnectTimeout(java.time.Duration.ofMillis(config.connectTimeout().toMillis()));
        connector.setIdleTimeout(config.idleTimeout());
        HttpClientTransportOverHTTP transport = new HttpClientTransportOverHTTP(connector);
        transport.setInvocationType(Invocable.InvocationType.NON_BLOCKING);
        HttpClient client = new HttpClient(transport);
        client.setSocketAddressResolver(addresses.resolverFor(client));
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("cohort-" + config.name() + "-client");
        client.setExecutor(threads);
        return client;
    }

    @Override
    protected void configureHttpClient(HttpClient client) {
        super.configureHttpClient(client);
        client.setConnectTimeout(config.connectTimeout().toMillis());
        client.setIdleTimeout(config.idleTimeout().toMillis());
        MemberLimitsConfig limits = config.memberLimits();
        client.setMaxConnectionsPerDestination(limits.maxConnections());
        // over it, HttpClient refuses the request and answerOverloaded answers 503 (Jetty's own default is 1,024 too)
        client.setMaxRequestsQueuedPerDestination(limits.maxQueued());
        client.setUserAgentField(null);
        client.setDefaultRequestContentType(null); // a body without Content-Type goes on without one, as the client sent it
        // a head the balancer accepted must fit once it adds Via and the forwarding headers (X-Forwarded-Host and
        // Forwarded repeat the client's Host): room for the head twice over plus a little
        client.setMaxRequestHeadersSize((int) Math.min(Integer.MAX_VALUE, config.maxHeaderSize().bytes() * 2 + 1024));
        // a larger head is the member's 502 (counted in its cohort_balancer_errors_total, not retried: an answer had begun)
        client.setMaxResponseHeadersSize((int) limits.maxHeaderSize().bytes());
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if (HttpMethod.CONNECT.is(method)) {
            metrics.refused();
            response.getHeaders().put(HttpHeader.ALLOW, "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH");
            response.getHeaders().put(HttpHeader.CONNECTION, "close"); // a refused tunnel leaves nothing to keep alive
            ErrorPage.refuse(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, ErrorPage.NOT_A_PROXY);
            return true;
        }
        if (targetsAnotherHost(request) || (ClientConnectionFactory.isAbsoluteForm(request) && !isOwnHost(request))) {
            metrics.refused();
            ErrorPage.refuse(request, response, callback, HttpStatus.FORBIDDEN_403, ErrorPage.NOT_A_PROXY);
            return true;
        }
        if (request.getLength() > maxBody) {
            metrics.refused();
            ErrorPage.refuse(request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, ErrorPage.TOO_LARGE);
            return true;
        }
        String target = UpstreamTarget.of(request.getHttpURI().getPathQuery());
        if (target == null) {
            metrics.refused();
            ErrorPage.refuse(request, response, callback, HttpStatus.BAD_REQUEST_400, ErrorPage.BAD_TARGET);
            return true;
        }
        if (BufferedBody.applies(request, maxBody)) {
            BufferedBody.read(request, config.requestTimeout().toMillis(), metrics.bodyBuffers(), (buffered, failure) -> {
                if (failure != null) {
                    bodyFailed(failure, response, callback);
                } else {
                    forward(buffered, target, response, callback);
                }
            });
            return true;
        }
        forward(request, target, response, callback);
        return true;
    }

    /** The client's small body did not arrive whole (see {@link BufferedBody}): its error, no member was asked. */
    private void bodyFailed(Throwable failure, Response response, Callback callback) {
        metrics.refused();
        if (response.isCommitted()) {
            callback.failed(failure);
        } else if (timedOut(failure)) {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            ErrorPage.write(response, callback, HttpStatus.REQUEST_TIMEOUT_408, ErrorPage.BODY_TIMEOUT);
        } else {
            response.getHeaders().put(HttpHeader.CONNECTION, "close");
            ErrorPage.write(response, callback, HttpStatus.BAD_REQUEST_400, ErrorPage.BAD_BODY);
        }
    }

    private static boolean timedOut(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.util.concurrent.TimeoutException) {
                return true;
            }
        }
        return false;
    }

    private void forward(Request request, String target, Response response, Callback callback) {
        SessionRoute session = SessionRoute.of(request, config.sessionCookie(), liveMember, member);
        Exchange exchange = new Exchange(session, target, isIdempotent(request.getMethod()),
                ClientConnectionFactory.goneWatch(request));
        request.setAttribute(Exchange.ATTRIBUTE, exchange);
        Router.Route route = router.route(exchange.session, null);
        if (route == null) {
            metrics.unavailable();
            ErrorPage.refuse(request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, ErrorPage.NO_MEMBER);
            return;
        }
        attempt(exchange, route, request, response, callback);
    }

    /** Counts why the request goes to {@code route}'s member (sticky, failover) in its meters and {@link #send}s it there. */
    private void attempt(Exchange exchange, Router.Route route, Request request, Response response, Callback callback) {
        MemberMeters meters = route.backend().meters();
        if (route.reason() == Router.Reason.STICKY) {
            meters.stickyHits.increment();
        } else if (route.failover()) {
            meters.failovers.increment();
        }
        send(exchange, route, request, response, callback);
    }

    /**
     * Sends the request to {@code route}'s member, counted in flight there until the attempt ends.
     * Once {@link ProxyHandler#handle} returns, the response listener ends the attempt; if it throws
     * instead, it never sent the request, so the attempt is ended here and the client's callback is
     * failed (Jetty answers 500), and the exception is not thrown on: on a retry this runs inside
     * HttpClient's listener, where it would be lost and the client left without an answer.
     */
    private void send(Exchange exchange, Router.Route route, Request request, Response response, Callback callback) {
        exchange.begin(route);
        try {
            response.getHeaders().put(route.backend().routedHeader(route.reason()));
            super.handle(request, response, callback);
        } catch (RuntimeException | Error failure) {
            exchange.end();
            if (failure instanceof Error error) {
                throw error;
            }
            LOG.warn("Balancer {} could not forward {} {}", route.backend().logName(), request.getMethod(), request.getHttpURI().getPath(),
                    failure);
            callback.failed(failure);
        }
    }

    @Override
    protected HttpURI rewriteHttpURI(Request request) {
        Exchange exchange = exchange(request);
        return HttpURI.build(exchange.backend().baseUri() + exchange.target);
    }

    /**
     * Each attempt comes with its own {@link MemberDeadline}, which waiting for the client's body stops and the start of
     * the member's answer ends: {@code request-timeout} bounds the member's time until it answers, not how long its
     * answer streams (a download, server-sent events), which pauses of the connection's idle timeout bound instead.
     * HttpClient's own total timeout would cut a streaming answer off.
     */
    @Override
    protected org.eclipse.jetty.client.Request newProxyToServerRequest(Request request, HttpURI target) {
        org.eclipse.jetty.client.Request toMember = super.newProxyToServerRequest(request, target);
        exchange(request).deadline = new MemberDeadline(getHttpClient().getScheduler(), config.requestTimeout().toMillis(),
                toMember);
        return toMember;
    }


    @Override
    protected void copyRequestHeaders(Request request, org.eclipse.jetty.client.Request toMember) {
        super.copyRequestHeaders(request, toMember);
        toMember.headers(ForwardedHeaders::removeUntrusted);
    }

    @Override
    protected void addForwardedHeader(Request request, org.eclipse.jetty.client.Request toMember) {
        toMember.headers(headers -> forwarded.add(request, headers));
    }

    @Override
    protected org.eclipse.jetty.client.Request.Content newProxyToServerRequestContent(Request request, Response response,
                                                                                       org.eclipse.jetty.client.Request toMember) {
        Exchange exchange = exchange(request);
        exchange.content = new GuardedRequestContent(request, exchange.bodyDemand(request), exchange.deadline, maxBody);
        return exchange.content;
    }

    @Override
    protected void sendProxyToServerRequest(Request request, org.eclipse.jetty.client.Request toMember, Response response,
                                            Callback callback) {
        Exchange exchange = exchange(request);
        // a member may think for all of request-timeout before its first byte (a slow report, a long poll): the
        // exchange's MemberDeadline, until the answer begins. No HttpClient total timeout: it would count the time a
        // client takes to upload against the member, and cut off an answer still streaming. A client may pause its
        // upload for idle-timeout, which its own connection's idle timeout enforces (408). The connection to the
        // member bounds a pause in the member's answer; with a body it outlasts both, a backstop only: were it to time
        // out first, it would abort the request while HttpClient waits for the client's body, and HttpClient
        // completes such an abort only once that body moves again
        toMember.onRequestBegin(exchange::onConnection).onResponseBegin(exchange);
        long memberIdle = config.requestTimeout().toMillis() + (LingeringClose.carriesBody(request) ? config.idleTimeout().toMillis() : 0);
        toMember.idleTimeout(memberIdle, TimeUnit.MILLISECONDS);
        exchange.deadline.start();
        // a client that goes away while it waits for the answer takes the member's request with it (nginx does so too):
        // watched from when the balancer reads no more of its request, so also while the request waits for a connection
        if (request instanceof BufferedBody || !LingeringClose.carriesBody(request)) {
            exchange.watchClient(toMember);
        } else {
            toMember.onRequestSuccess(sent -> exchange.watchClient(toMember)); // the streamed body was read whole
        }
        super.sendProxyToServerRequest(request, toMember, response, callback);
    }

    /**
     * Jetty's response listener drops the fixed hop-by-hop headers; this one also drops the headers the member's own
     * {@code Connection} header names (RFC 9110 §7.6.1): they belong to the connection between member and balancer.
     * And it notes when writing the answer to the client failed (Jetty then aborts the member's answer), and while a
     * chunk waits to be written to the client, so that failure, or a timeout while the client does not read, is
     * counted as the client's, not as the member's error.
     */
    @Override
    protected org.eclipse.jetty.client.Response.CompleteListener newServerToProxyResponseListener(Request request,
            org.eclipse.jetty.client.Request toMember, Response response, Callback callback) {
        Exchange exchange = exchange(request);
        return new ProxyResponseListener(request, toMember, response, callback) {
            private ClientWriteWatch watch; // one per answer; chunks arrive one at a time

            @Override
            public void onContent(org.eclipse.jetty.client.Response fromMember, Content.Chunk chunk, Runnable demander) {
                if (watch == null || !watch.watches(fromMember)) {
                    watch = new ClientWriteWatch(fromMember, exchange);
                }
                exchange.clientWriting(true);
                super.onContent(watch, chunk, () -> { // runs once the chunk reached the client
                    exchange.clientWriting(false);
                    demander.run();
                });
            }

            @Override
            public void onHeaders(org.eclipse.jetty.client.Response fromMember) {
                super.onHeaders(fromMember);
                for (String named : fromMember.getHeaders().getCSV(HttpHeader.CONNECTION, false)) {
                    if (!named.isBlank() && !ROUTED_HEADER.equalsIgnoreCase(named.strip())) {
                        response.getHeaders().remove(named.strip());
                    }
                }
            }
        };
    }

    @Override
    protected HttpField filterServerToProxyResponseField(HttpField field) {
        return ROUTED_HEADER.equalsIgnoreCase(field.getName()) ? null : field;
    }

    @Override
    protected void onServerToProxyResponseFailure(Request request, org.eclipse.jetty.client.Request toMember,
                                                  org.eclipse.jetty.client.Response fromMember, Response response,
                                                  Callback callback, Throwable failure) {
        Exchange exchange = exchange(request);
        Backend backend = exchange.backend();
        exchange.end();
        if (exchange.clientLeft()) {
            // the client went away while it waited for the answer; the balancer aborted the member's request for it
            // and closed the client's connection: no fault of the member, and nobody to retry for
            LOG.debug("{} {} to {} aborted: the client left before the answer began", request.getMethod(),
                    request.getHttpURI().getPath(), backend);
            metrics.clientAborted();
            callback.failed(failure);
            return;
        }
        Throwable clientFailure = exchange.clientBodyFailure();
        if (clientFailure != null) {
            LOG.debug("{} {} to {} failed reading the client's body: {}", request.getMethod(), request.getHttpURI().getPath(), backend,
                    clientFailure.toString());
            answerClientBodyFailure(exchange, request, response, callback, clientFailure);
            return;
        }
        if (isTimeout(failure) && exchange.waitingForClientBody()) {
            // the connection to the member went idle while the balancer waited for the client's body: it stalled
            LOG.debug("{} {} to {} timed out waiting for the client's body: {}", request.getMethod(), request.getHttpURI().getPath(),
                    backend, failure.toString());
            answerClientBodyFailure(exchange, request, response, callback, failure);
            return;
        }
        if (exchange.clientWriteFailed() || (exchange.clientWriting() && isTimeout(failure))) {
            // the client went away while the answer streamed to it (Jetty aborts the member's answer with the
            // client's write failure), or stopped reading until the exchange timed out: no fault of the member
            metrics.clientAborted();
            callback.failed(failure);
            return;
        }
        // HttpClient also refuses with RejectedExecutionException while it stops: only a running client's is a full queue
        if (!exchange.reachedConnection() && getHttpClient().isRunning()
                && Failures.causedBy(failure, RejectedExecutionException.class)) {
            answerOverloaded(exchange, request, response, callback);
            return;
        }
        if (getHttpClient().isRunning() && resendable(exchange, response, failure)) { // not while the balancer stops
            LOG.debug("Sending {} {} to {} again: the kept-alive connection it went out on ended before any answer ({})",
                    request.getMethod(), request.getHttpURI().getPath(), backend, failure.toString());
            backend.meters().resends.increment();
            exchange.resends++;
            response.reset();
            send(exchange, exchange.route, request, response, callback);
            return;
        }
        backend.meters().errors.increment();
        switch (Failures.connectFailure(exchange.reachedConnection(), failure, getHttpClient().isRunning())) {
            case MEMBER_UNREACHABLE -> {
                if (!backend.excuseIfLate(failure, exchange.attemptStartNanos)
                        && backend.health().connectFailed() == HealthState.Change.WENT_DOWN) {
                    LOG.warn("Balancer {} is down (connection failed: {})", backend.logName(), failure.toString());
                }
            }
            case UNCERTAIN -> {
                if (backend.uncertainFailureCounts(config.health().interval())
                        && backend.health().checkFailed() == HealthState.Change.WENT_DOWN) {
                    LOG.warn("Balancer {} is down (connections failed: {})", backend.logName(), failure.toString());
                }
            }
            case NONE -> { }
        }
        if (retryable(exchange, response, failure)) {
            Router.Route next = router.route(exchange.session, backend);
            if (next != null) {
                LOG.debug("Retrying {} {} on {} after {} failed: {}", request.getMethod(), request.getHttpURI().getPath(), next.backend(),
                        backend, failure.toString());
                backend.meters().retries.increment();
                response.reset();
                attempt(exchange, next, request, response, callback);
                return;
            }
        }
        if (response.isCommitted()) {
            callback.failed(failure);
            return;
        }
        response.reset();
        response.getHeaders().put(backend.routedHeader(exchange.route.reason()));
        if (isTimeout(failure)) {
            answer(exchange, request, response, callback, HttpStatus.GATEWAY_TIMEOUT_504, ErrorPage.GATEWAY_TIMEOUT);
        } else {
            answer(exchange, request, response, callback, HttpStatus.BAD_GATEWAY_502, ErrorPage.BAD_GATEWAY);
        }
    }

    /**
     * Writes the balancer's own answer to a request an attempt was made for: the rest of the client's body, which
     * the failed attempt left unread ({@link GuardedRequestContent}), is read and dropped before the connection
     * closes ({@link ErrorPage#refuse}), through the exchange's {@link ClientBodyDemand}, where the attempt's demand
     * may still be pending.
     */
    private static void answer(Exchange exchange, Request request, Response response, Callback callback, int status,
                               String sentence) {
        ErrorPage.refuse(exchange.bodyDemand(request).request(), response, callback, status, sentence);
    }

    /**
     * Answers a request that HttpClient refused to queue for its member ({@code max-queued-per-member} were waiting
     * for one of its {@code max-connections}): the balancer's own overload, not the member's failure. 503 with
     * {@code Retry-After}, counted in {@code cohort_balancer_overloaded_total} (the first logged); no error of the
     * member, no health change and no retry, which would move a session away from its owner, or send a POST
     * elsewhere, only because the owner is busy.
     */
    private void answerOverloaded(Exchange exchange, Request request, Response response, Callback callback) {
        metrics.overloaded();
        if (overloadLogged.compareAndSet(false, true)) {
            LOG.warn("Balancer {}: {} requests wait for a connection to it; further ones are answered 503 (logged once)",
                    exchange.backend().logName(), config.memberLimits().maxQueued());
        }
        LOG.debug("{} {} to {} refused: its queue is full", request.getMethod(), request.getHttpURI().getPath(), exchange.backend());
        if (response.isCommitted()) {
            callback.failed(new RejectedExecutionException("the queue for " + exchange.backend() + " is full"));
            return;
        }
        response.reset();
        response.getHeaders().put(exchange.backend().routedHeader(exchange.route.reason()));
        response.getHeaders().put(HttpHeader.RETRY_AFTER, OVERLOADED_RETRY_AFTER);
        answer(exchange, request, response, callback, HttpStatus.SERVICE_UNAVAILABLE_503, ErrorPage.OVERLOADED);
    }

    /**
     * Answers a request whose body could not be read from the client: 413 past the size limit, 408
     * when the client stopped sending, 400 otherwise (an early end of stream, malformed chunking), counted in
     * {@code cohort_balancer_refused_total} as the same answers before routing are; whatever of the
     * body is still to come (left readable by {@link GuardedRequestContent}) is read and dropped ({@link #answer});
     * with a committed response, or a client already gone, the callback fails and Jetty closes the
     * connection.
     */
    private void answerClientBodyFailure(Exchange exchange, Request request, Response response, Callback callback,
                                         Throwable failure) {
        if (response.isCommitted()) {
            callback.failed(failure);
            return;
        }
        metrics.refused();
        response.reset();
        response.getHeaders().put(exchange.backend().routedHeader(exchange.route.reason()));
        if (failure instanceof BodyTooLargeException) {
            answer(exchange, request, response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, ErrorPage.TOO_LARGE);
        } else if (isTimeout(failure)) {
            answer(exchange, request, response, callback, HttpStatus.REQUEST_TIMEOUT_408, ErrorPage.BODY_TIMEOUT);
        } else {
            answer(exchange, request, response, callback, HttpStatus.BAD_REQUEST_400, ErrorPage.BAD_BODY);
        }
    }

    /**
     * The retry rule: at most one retry, only before any answer, and only when running twice is impossible: the
     * request is idempotent, or it never reached a connection to the member ({@link Exchange#reachedConnection}),
     * whatever it failed with. Whether the head was reported written does not tell: HttpClient reports it only after
     * the write completed, so a member can have read the whole request, and closed the connection, before that. A
     * request whose body was read is never retried: the body cannot be read again.
     */
    private static boolean retryable(Exchange exchange, Response response, Throwable failure) {
        if (exchange.moves() > 0 || exchange.answered() || response.isCommitted() || isTimeout(failure)
                || exchange.bodyTouched()) {
            return false;
        }
        return exchange.idempotent || !exchange.reachedConnection();
    }

    /**
     * The rule for sending a request to the same member again, not counted as its error: the attempt went out on a
     * kept-alive connection from the pool, which ended under it before any answer ({@link StaleConnection}), and the
     * request could safely run twice (idempotent, none of its body read); at most {@link StaleConnection#MAX_RESENDS}
     * times, since the pool may hold more connections the member closed. A POST on such a connection is not sent again:
     * the member may have acted on it.
     */
    private static boolean resendable(Exchange exchange, Response response, Throwable failure) {
        return exchange.onReusedConnection() && exchange.idempotent && exchange.resends < StaleConnection.MAX_RESENDS
                && !exchange.answered() && !response.isCommitted() && !exchange.bodyTouched()
                && StaleConnection.endedUnderIt(failure);
    }

    private static boolean isTimeout(Throwable failure) {
        return Failures.causedBy(failure, TimeoutException.class);
    }

    @Override
    protected void onProxyToClientResponseComplete(Request request, org.eclipse.jetty.client.Request toMember,
                                                   org.eclipse.jetty.client.Response fromMember, Response response, Callback callback) {
        Exchange exchange = exchange(request);
        exchange.end();
        exchange.backend().meters().recordLatency(exchange.attemptStartNanos); // this member's time, not an earlier attempt's
        super.onProxyToClientResponseComplete(request, toMember, fromMember, response, callback);
    }

    @Override
    protected void onProxyToClientResponseFailure(Request request, org.eclipse.jetty.client.Request toMember,
                                                  org.eclipse.jetty.client.Response fromMember, Response response, Callback callback,
                                                  Throwable failure) {
        Exchange exchange = exchange(request);
        exchange.end();
        metrics.clientAborted(); // the member answered in full; writing its answer to the client failed
        super.onProxyToClientResponseFailure(request, toMember, fromMember, response, callback, failure);
    }

    private static Exchange exchange(Request request) {
        return (Exchange) request.getAttribute(Exchange.ATTRIBUTE);
    }

    static boolean isIdempotent(String method) {
        return HttpMethod.GET.is(method) || HttpMethod.HEAD.is(method) || HttpMethod.OPTIONS.is(method) || HttpMethod.PUT.is(method)
                || HttpMethod.DELETE.is(method);
    }

    /**
     * Whether the request's target names another host than its Host header: an absolute URI
     * ({@code GET http://elsewhere/ HTTP/1.1}) asking the balancer to act as a forward proxy.
     */
    static boolean targetsAnotherHost(Request request) {
        HttpField host = request.getHeaders().getField(HttpHeader.HOST);
        if (host == null) {
            return false; // HTTP/1.0 without Host: Jetty set the URI's authority from the connector
        }
        HostPort hostPort = host instanceof HostPortHttpField field ? field.getHostPort() : new HostPort(host.getValue());
        HttpURI uri = request.getHttpURI();
        if (!bare(hostPort.getHost()).equalsIgnoreCase(bare(uri.getHost()))) {
            return true;
        }
        int defaultPort = HttpScheme.HTTPS.is(uri.getScheme()) ? 443 : 80;
        int headerPort = hostPort.getPort() > 0 ? hostPort.getPort() : defaultPort;
        int uriPort = uri.getPort() > 0 ? uri.getPort() : defaultPort;
        return headerPort != uriPort;
    }

    /**
     * Whether an absolute-form target names this balancer: its configured host or bind address,
     * the address the request arrived at, or loopback.
     */
    private boolean isOwnHost(Request request) {
        String host = bare(request.getHttpURI().getHost());
        return host.equalsIgnoreCase(config.host()) || host.equalsIgnoreCase(config.bindAddress())
                || host.equalsIgnoreCase(bare(Request.getLocalAddr(request))) || host.equalsIgnoreCase("localhost")
                || host.equals("127.0.0.1") || host.equals("::1");
    }

    private static String bare(String host) {
        if (host == null) {
            return "";
        }
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
