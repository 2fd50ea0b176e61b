package io.cohort.balancer;

import java.nio.ByteBuffer;
import java.util.Arrays;
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
 * user). Bodies with a {@code Content-Length} up to {@link #LIMIT} are buffered, in a buffer that grows as bytes
 * arrive (memory follows what the client sent, not what it declared); larger or chunked
 * ones are streamed as they arrive. The whole body must arrive within the request timeout. Its headers are the
 * client's without {@code Expect}: the client's {@code 100-continue} was answered here when the body was read.
 */
final class BufferedBody extends Request.Wrapper {

    /** The largest body buffered: forms and small JSON documents, not uploads. */
    static final int LIMIT = 64 * 1024;
    /** The first buffer of a body (or its length, if shorter): a small form fits, and growth starts from it. */
    static final int FIRST_CAPACITY = 1024;

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
     * milliseconds). Each chunk is copied into a buffer that grows with the bytes that arrived (doubling, from
     * {@link #FIRST_CAPACITY} bytes, never past the declared length) and released at once, so a client that declares
     * a length and sends less (or nothing) pins about what it sent, not what it declared; {@code meters} count
     * the buffer while it is read. {@code then} runs once.
     */
    static void read(Request request, long deadlineMillis, BodyBufferMeters meters, BiConsumer<Request, Throwable> then) {
        Scheduler scheduler = request.getComponents().getScheduler();
        Scheduler.Task timeout = scheduler.schedule(() -> request.fail(new TimeoutException(
                "the request body did not arrive within " + deadlineMillis + " ms")), deadlineMillis, TimeUnit.MILLISECONDS);
        new Reader(request, (int) request.getLength(), meters, (body, failure) -> {
            timeout.cancel();
            then.accept(failure == null ? new BufferedBody(request, body) : request, failure);
        }).run();
    }

    /** Copies the body's chunks into a growing buffer as they arrive; runs again on each demand callback. */
    private static final class Reader implements Runnable {
        private final Request request;
        private final int length;
        private final BodyBufferMeters meters;
        private final BiConsumer<byte[], Throwable> done;
        private byte[] body = new byte[0];
        private int filled;

        Reader(Request request, int length, BodyBufferMeters meters, BiConsumer<byte[], Throwable> done) {
            this.request = request;
            this.length = length;
            this.meters = meters;
            this.done = done;
            meters.started();
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
                    finish(chunk.getFailure());
                    return;
                }
                ByteBuffer bytes = chunk.getByteBuffer();
                int size = bytes.remaining();
                boolean last = chunk.isLast();
                if (size > length - filled) {
                    chunk.release();
                    finish(new IllegalStateException("more body than its Content-Length of " + length));
                    return;
                }
                ensureRoom(size);
                bytes.get(body, filled, size);
                filled += size;
                chunk.release();
                if (last) {
                    finish(filled == length ? null
                            : new IllegalStateException("the body ended after " + filled + " of " + length + " bytes"));
                    return;
                }
            }
        }

        /** Grows the buffer to hold {@code size} more bytes: at least doubled, at most the declared length. */
        private void ensureRoom(int size) {
            int needed = filled + size;
            if (needed <= body.length) {
                return;
            }
            int capacity = Math.min(length, Math.max(needed, Math.max(FIRST_CAPACITY, body.length * 2)));
            meters.grew(capacity - body.length);
            body = Arrays.copyOf(body, capacity);
        }

        /** Ends the reading: the whole body (the buffer is then exactly the declared length) or the failure. */
        private void finish(Throwable failure) {
            meters.ended(body.length);
            byte[] complete = failure == null ? body : null;
            body = null;
            done.accept(complete, failure);
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
