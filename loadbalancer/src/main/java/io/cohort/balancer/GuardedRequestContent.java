package io.cohort.balancer;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

/**
 * The client's request body as the body of the request to a member, with three guards. It counts
 * bytes and fails with {@link BodyTooLargeException} past the limit (a chunked body has no length
 * to check up front). It never passes a failure on to the client's request: when the attempt fails (HttpClient
 * fails this content: the member failed or timed out, the client's body failed or grew past the limit), this
 * content reads no more of the client's body, which stays readable for what comes next: a retry on another member
 * sends it whole when nothing of it was read ({@link #touched}), and otherwise the balancer's answer (413, 408, 502,
 * ...) reads and drops the rest ({@link io.cohort.net.LingeringClose}), so that a client still sending reads the
 * answer instead of a reset. It keeps the failure that reading the client's body ended with
 * ({@link #readFailure}): HttpClient reads the first chunk before it sends the request head, so an
 * upload the client gives up on fails the attempt before anything was sent, and only this tells it
 * from a failed connection to the member. Its demands go through the request's {@link ClientBodyDemand}, which a
 * retry shares, and stop the attempt's {@link MemberDeadline} until more of the body has been read (not merely until
 * the demand is answered: the client's idle timeout answers it too, with a failure): the time the client takes to
 * send its body is not the member's. Not thread-safe beyond what {@link Content.Source}
 * requires (one reader).
 */
final class GuardedRequestContent implements Request.Content {

    private final org.eclipse.jetty.server.Request source;
    private final ClientBodyDemand demand;
    private final MemberDeadline deadline;
    private final long limit;
    private final String contentType;
    private long bytes;
    private volatile boolean touched;
    private volatile Throwable readFailure;
    /** Once set, every read returns it: the rest of the body is not this attempt's. */
    private volatile Throwable ended;

    GuardedRequestContent(org.eclipse.jetty.server.Request source, ClientBodyDemand demand, MemberDeadline deadline, long limit) {
        this.source = source;
        this.demand = demand;
        this.deadline = deadline;
        this.limit = limit;
        this.contentType = source.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    /** Whether any of the body has been read: a retry could not send it again. */
    boolean touched() {
        return touched;
    }

    /**
     * The failure a read of the client's body returned, or null: its early end of stream, its
     * malformed chunking, its idle timeout, or {@link BodyTooLargeException}. Never a failure that
     * HttpClient passed in through {@link #fail} (the exchange with the member failed), nor one read
     * after it: that is the same failure coming back.
     */
    Throwable readFailure() {
        return readFailure;
    }

    @Override
    public String getContentType() {
        return contentType;
    }

    @Override
    public long getLength() {
        return source.getLength();
    }

    @Override
    public Content.Chunk read() {
        Throwable end = ended;
        if (end != null) {
            return Content.Chunk.from(end, true);
        }
        Content.Chunk chunk = source.read();
        if (chunk == null) {
            return null;
        }
        touched = true;
        if (Content.Chunk.isFailure(chunk)) { // the client failed: the time it took stays its own
            if (ended == null && readFailure == null) {
                readFailure = chunk.getFailure();
            }
            return chunk;
        }
        deadline.clientBodyArrived();
        bytes += chunk.remaining();
        if (bytes > limit) {
            chunk.release();
            BodyTooLargeException tooLarge = new BodyTooLargeException(limit);
            readFailure = tooLarge;
            ended = tooLarge;
            return Content.Chunk.from(tooLarge, true);
        }
        return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
        deadline.clientBodyAwaited();
        demand.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        fail(failure, true);
    }

    /**
     * The attempt failed: this content reads no more of the client's body and drops its demand (see
     * {@link ClientBodyDemand#cancel}), leaving the client's request readable for a retry or for the answer's
     * {@link io.cohort.net.LingeringClose}.
     */
    @Override
    public void fail(Throwable failure, boolean last) {
        if (ended == null) {
            ended = failure;
        }
        demand.cancel();
    }
}
