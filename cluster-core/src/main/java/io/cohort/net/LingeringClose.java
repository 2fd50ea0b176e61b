package io.cohort.net;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Completes a request that was answered before its body was read (a refused upload) only once the rest of the body
 * has been read and discarded, within bounds: what Apache httpd's lingering close, nginx's {@code lingering_close} and
 * Tomcat's {@code maxSwallowSize} do.
 *
 * <p>Why: Jetty 12 closes the connection as soon as such a request completes (it cannot consume the unread body, so
 * it fails the stream, which aborts the connection), while the client is usually still sending. The bytes that then
 * reach the closed socket make the server's kernel reset the connection, and a client that sends its whole body before
 * it reads (Java's HttpClient, many scripts) fails with "broken pipe" or "connection reset" instead of reading the
 * answer. Reading the rest lets such a client finish sending and then read the answer. Used by the node's admin API
 * and by the load balancer for the answers each gives before it read a body (413, 401, 429, 503, ...); the answer
 * itself should say {@code Connection: close}, since past a bound the connection is closed all the same.
 *
 * <p>Bounds: at most {@code maxBytes} (plus the piece that passes it) and {@code maxTime} from the answer on; past
 * either the request completes and Jetty closes the connection as before, so a client cannot hold it by sending
 * slowly or without end. Waiting for the body holds no thread ({@link Request#demand}). A client that asked for
 * {@code 100-continue} and was never invited (nothing of its body was read) has not sent its body: the request
 * completes at once, and reading would now invite it.
 *
 * <p>Thread-safety: one instance per request; Jetty serializes the reads, the time bound runs on Jetty's scheduler.
 */
public final class LingeringClose {

    /** The most a refused request's body is read after its answer: Tomcat's {@code maxSwallowSize} default. */
    static final long MAX_BYTES = 2L * 1024 * 1024;
    /** The longest a refused request's body is read after its answer. */
    static final Duration MAX_TIME = Duration.ofSeconds(10);

    private final Request request;
    private final Callback completion;
    private final long maxBytes;
    private final Duration maxTime;
    private long discarded;
    private boolean completed; // guarded by this
    private Scheduler.Task deadline; // guarded by this

    private LingeringClose(Request request, Callback completion, long maxBytes, Duration maxTime) {
        this.request = request;
        this.completion = completion;
        this.maxBytes = maxBytes;
        this.maxTime = maxTime;
    }

    /**
     * The callback for writing the early answer to {@code request}: when the answer is written, the rest of the body is
     * read (within {@link #MAX_BYTES} and {@link #MAX_TIME}) and then {@code completion} succeeds; when the answer
     * fails, {@code completion} fails.
     */
    public static Callback afterAnswer(Request request, Callback completion) {
        return afterAnswer(request, completion, MAX_BYTES, MAX_TIME);
    }

    /**
     * The callback for writing an early answer to {@code request}, and its {@code Connection} header: when the request
     * carries a body, the answer says {@code Connection: close} (whatever of the body is left unread, the connection
     * cannot carry another request) and completes as {@link #afterAnswer(Request, Callback)}; without a body, it is
     * {@code completion} itself and the answer is left as it is.
     */
    public static Callback forEarlyAnswer(Request request, Response response, Callback completion) {
        if (!carriesBody(request)) {
            return completion;
        }
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        return afterAnswer(request, completion);
    }

    /** Whether {@code request} has a body: a positive {@code Content-Length}, or a {@code Transfer-Encoding}. */
    public static boolean carriesBody(Request request) {
        long length = request.getLength();
        return length > 0 || length < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
    }

    /** As {@link #afterAnswer(Request, Callback)} with other bounds. */
    static Callback afterAnswer(Request request, Callback completion, long maxBytes, Duration maxTime) {
        LingeringClose linger = new LingeringClose(request, completion, maxBytes, maxTime);
        return Callback.from(linger::start, completion::failed);
    }

    private void start() {
        if (bodyNeverInvited()) {
            complete();
            return;
        }
        synchronized (this) {
            deadline = request.getComponents().getScheduler().schedule(this::timeOut, maxTime.toMillis(),
                    TimeUnit.MILLISECONDS);
        }
        discard();
    }

    private boolean bodyNeverInvited() {
        return request.getHeaders().contains(HttpHeader.EXPECT, HttpHeaderValue.CONTINUE.asString())
                && Request.getContentBytesRead(request) == 0;
    }

    /** Reads and drops what has arrived; then waits for more, or completes at the end, a failure or past the bytes. */
    private void discard() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::discard);
                return;
            }
            discarded += chunk.remaining();
            chunk.release();
            if (chunk.isLast() || Content.Chunk.isFailure(chunk) || discarded > maxBytes) {
                complete(); // a failure is the time bound's, the client's or an idle timeout's
                return;
            }
        }
    }

    /** Fails the body, so that the waiting read ends (and completes) on Jetty's side of it. */
    private synchronized void timeOut() {
        if (!completed) {
            request.fail(new TimeoutException("the rest of a refused request's body took longer than " + maxTime));
        }
    }

    private void complete() {
        synchronized (this) {
            if (completed) {
                return;
            }
            completed = true;
            if (deadline != null) {
                deadline.cancel();
            }
        }
        completion.succeeded();
    }
}
