package io.cohort.balancer;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

/**
 * The client's request body as the body of the request to a member, with three guards. It counts
 * bytes and fails with {@link BodyTooLargeException} past the limit (a chunked body has no length
 * to check up front), without failing the client's request: the rest of its body stays readable, for
 * the 413 to drop it ({@link io.cohort.net.LingeringClose}) so that a client still sending reads the
 * answer. It knows whether any of the body was read: HttpClient fails the body of
 * a request whose connection could not be made, and this content does not pass that failure on to
 * the client's request while nothing was read, so a retry on another member can still send the
 * whole body. And it keeps the failure that reading the client's body ended with
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
    private volatile boolean failedUpstream;
    private volatile Throwable readFailure;
    private BodyTooLargeException tooLarge; // once set, every read returns it: the rest of the body is not the member's

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
        if (tooLarge != null) {
            return Content.Chunk.from(tooLarge, true);
        }
        Content.Chunk chunk = source.read();
        if (chunk == null) {
            return null;
        }
        touched = true;
        if (Content.Chunk.isFailure(chunk)) { // the client failed: the time it took stays its own
            if (!failedUpstream && readFailure == null) {
                readFailure = chunk.getFailure();
            }
            return chunk;
        }
        deadline.clientBodyArrived();
        bytes += chunk.remaining();
        if (bytes > limit) {
            chunk.release();
            tooLarge = new BodyTooLargeException(limit);
            readFailure = tooLarge;
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

    @Override
    public void fail(Throwable failure, boolean last) {
        failedUpstream = true;
        if (readFailure instanceof BodyTooLargeException) {
            return; // the client's request stays readable: its 413 drops the rest of the body
        }
        if (touched) {
            source.fail(failure, last);
        } else {
            demand.cancel(); // a retry demands, and reads, the whole body itself
        }
    }
}
