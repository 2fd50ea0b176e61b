package io.cohort.balancer;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.content.ByteBufferContentSource;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A small request body read whole before any member is asked: a client that sends its body slowly
 * (one byte every few seconds) then holds nothing but its own connection to the balancer, not one of
 * a member's connections for each such request (64 of them would stall the member for every other
 * user). Bodies with a {@code Content-Length} up to {@link #LIMIT} are buffered; larger or chunked
 * ones are streamed as they arrive. The whole body must arrive within the request timeout. Its headers are the
 * client's without {@code Expect}: the client's {@code 100-continue} was answered here when the body was read.
 */
final class BufferedBody extends Request.Wrapper {

    /** The largest body buffered: forms and small JSON documents, not uploads. */
    static final int LIMIT = 64 * 1024;

    private final ByteBufferContentSource content;
    private final HttpFields headers;

    private BufferedBody(Request request, byte[] body) {
        super(request);
        this.content = new ByteBufferContentSource(ByteBuffer.wrap(body));
        // the body is here: nobody waits for a go-ahead any more (the proxy would otherwise wait for the member's
        // "100 Continue" before sending the body, and the member, never asked, would wait for the body)
        this.headers = HttpFields.build(request.getHeaders()).remove(HttpHeader.EXPECT).asImmutable();
    }

    @Override
    public HttpFields getHeaders() {
        return headers;
    }

    /** Whether {@code request}'s body is read whole before it is forwarded (at most {@code maxBody} bytes). */
    static boolean applies(Request request, long maxBody) {
        long length = request.getLength();
        return length > 0 && length <= Math.min(LIMIT, maxBody);
    }

    /**
     * Reads {@code request}'s body, then calls {@code then} with a request whose content is that body, or with the
     * failure (the client's early end, or a {@link TimeoutException} when the body took longer than {@code deadline}
     * milliseconds). Each chunk is copied into one array of the declared length and released at once, so a client
     * that sends its body in small pieces pins no more than that array. {@code then} runs once.
     */
    static void read(Request request, long deadlineMillis, BiConsumer<Request, Throwable> then) {
        Scheduler scheduler = request.getComponents().getScheduler();
        Scheduler.Task timeout = scheduler.schedule(() -> request.fail(new TimeoutException(
                "the request body did not arrive within " + deadlineMillis + " ms")), deadlineMillis, TimeUnit.MILLISECONDS);
        new Reader(request, new byte[(int) request.getLength()], (body, failure) -> {
            timeout.cancel();
            then.accept(failure == null ? new BufferedBody(request, body) : request, failure);
        }).run();
    }

    /** Copies the body's chunks into {@code body} as they arrive; runs again on each demand callback. */
    private static final class Reader implements Runnable {
        private final Request request;
        private final byte[] body;
        private final BiConsumer<byte[], Throwable> done;
        private int filled;

        Reader(Request request, byte[] body, BiConsumer<byte[], Throwable> done) {
            this.request = request;
            this.body = body;
            this.done = done;
        }

        @Override
        public void run() {
            while (true) {
                Content.Chunk chunk = request.read();
                if (chunk == null) {
                    request.demand(this);
                    return;
                }
                if (Content.Chunk.isFailure(chunk)) {
                    done.accept(null, chunk.getFailure());
                    return;
                }
                ByteBuffer bytes = chunk.getByteBuffer();
                int size = bytes.remaining();
                boolean last = chunk.isLast();
                if (size > body.length - filled) {
                    chunk.release();
                    done.accept(null, new IllegalStateException("more body than its Content-Length of " + body.length));
                    return;
                }
                bytes.get(body, filled, size);
                filled += size;
                chunk.release();
                if (last) {
                    done.accept(filled == body.length ? body : null, filled == body.length ? null
                            : new IllegalStateException("the body ended after " + filled + " of " + body.length + " bytes"));
                    return;
                }
            }
        }
    }

    @Override
    public Content.Chunk read() {
        return content.read();
    }

    @Override
    public void demand(Runnable demandCallback) {
        content.demand(demandCallback);
    }

    @Override
    public void fail(Throwable failure) {
        content.fail(failure);
    }
}
