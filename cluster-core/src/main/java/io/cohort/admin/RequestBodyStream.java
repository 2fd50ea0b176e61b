package io.cohort.admin;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Objects;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Blocker;
import org.eclipse.jetty.util.IO;

/**
 * A request body as a blocking stream, as {@link Content.Source#asInputStream} gives it, except for {@link #close}
 * before the end: that only releases what the stream holds, so that the rest of the body can still be read from the
 * request (by {@link io.cohort.net.LingeringClose}). Jetty's stream fails the request's content instead, after which
 * nothing more of the body can be read and Jetty closes the connection under a client that is still sending. Not
 * thread-safe.
 */
final class RequestBodyStream extends InputStream {

    private final Blocker.Shared blocking = new Blocker.Shared();
    private final Content.Source body;
    private Content.Chunk chunk; // holds bytes not read yet, or is the end or a failure
    private boolean closed;

    RequestBodyStream(Content.Source body) {
        this.body = Objects.requireNonNull(body, "body");
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] bytes, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (closed) {
            throw new IOException("closed");
        }
        if (length == 0) {
            return 0;
        }
        while (true) {
            if (chunk != null) {
                if (Content.Chunk.isFailure(chunk)) {
                    throw IO.rethrow(chunk.getFailure());
                }
                ByteBuffer buffer = chunk.getByteBuffer();
                if (buffer.hasRemaining()) {
                    int n = Math.min(buffer.remaining(), length);
                    buffer.get(bytes, offset, n);
                    if (!buffer.hasRemaining()) {
                        releaseChunk();
                    }
                    return n;
                }
                if (chunk.isLast()) {
                    return -1;
                }
                releaseChunk();
            }
            chunk = body.read();
            if (chunk == null) {
                try (Blocker.Runnable arrived = blocking.runnable()) {
                    body.demand(arrived);
                    arrived.block();
                }
            }
        }
    }

    @Override
    public int available() {
        return chunk == null || Content.Chunk.isFailure(chunk) ? 0 : chunk.remaining();
    }

    /** Releases the bytes held; the rest of the body stays in the request, unread. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            if (chunk != null) {
                chunk.release();
            }
        }
    }

    private void releaseChunk() {
        boolean last = chunk.isLast();
        chunk.release();
        chunk = last ? Content.Chunk.EOF : null;
    }
}
