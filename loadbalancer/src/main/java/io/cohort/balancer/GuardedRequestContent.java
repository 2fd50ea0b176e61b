package io.cohort.balancer;

import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;

/**
 * The client's request body as the body of the request to a member, with two guards. It counts
 * bytes and fails with {@link BodyTooLargeException} past the limit (a chunked body has no length
 * to check up front). And it knows whether any of the body was read: HttpClient fails the body of
 * a request whose connection could not be made, and this content does not pass that failure on to
 * the client's request while nothing was read, so a retry on another member can still send the
 * whole body. Not thread-safe beyond what {@link Content.Source} requires (one reader).
 */
final class GuardedRequestContent implements Request.Content {

    private final org.eclipse.jetty.server.Request source;
    private final long limit;
    private final String contentType;
    private long bytes;
    private volatile boolean touched;

    GuardedRequestContent(org.eclipse.jetty.server.Request source, long limit) {
        this.source = source;
        this.limit = limit;
        this.contentType = source.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    /** Whether any of the body has been read: a retry could not send it again. */
    boolean touched() {
        return touched;
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
        Content.Chunk chunk = source.read();
        if (chunk == null) {
            return null;
        }
        touched = true;
        bytes += chunk.remaining();
        if (bytes > limit) {
            chunk.release();
            BodyTooLargeException tooLarge = new BodyTooLargeException(limit);
            source.fail(tooLarge);
            return Content.Chunk.from(tooLarge, true);
        }
        return chunk;
    }

    @Override
    public void demand(Runnable demandCallback) {
        source.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        fail(failure, true);
    }

    @Override
    public void fail(Throwable failure, boolean last) {
        if (touched) {
            source.fail(failure, last);
        }
    }
}
