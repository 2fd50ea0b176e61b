package io.cohort.balancer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CancellationException;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.FillInterest;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * Watches one client connection, while its request waits for the member's answer, for the client going away. Jetty
 * reads nothing from an HTTP/1.1 client while it handles the client's request (it reads only the body the handler asks
 * for), so a client that closes or resets its connection meanwhile goes unnoticed until the answer is written to it:
 * the member's request would run to its end, holding one of the member's {@code max-connections}, for nobody.
 *
 * <p>While {@link #start started}, the watch asks the connection to say when it can be read, and then reads at most
 * one byte:
 * <ul>
 *   <li>the end of the stream, or a failure (a close or a reset): the client is gone. The connection is closed without
 *       an answer (nobody would read one; nginx does the same) and the watch's {@code onGone} runs, once, on a pool
 *       thread;</li>
 *   <li>a byte: the client is still there and sent more while it waits, the start of a pipelined request. The byte
 *       cannot be given back to Jetty's parser, so the watch stops and the connection closes after this answer
 *       ({@link #closeAfterAnswer}); the client sends its next request again, as RFC 9112 (9.3.2) asks of a client
 *       whose pipelined requests got no answer.</li>
 * </ul>
 *
 * <p>A connection takes one read interest at a time. Start the watch only once Jetty reads no more of the request
 * (it has no body, or its body was read whole): while Jetty reads, the watch does not start. {@link #stop} it before
 * Jetty reads again, at the latest before the request's stream completes (Jetty then parses the next request, and
 * aborts the connection if a read interest is left); after {@code stop} returns the watch reads nothing. Thread-safe:
 * start, stop and the read run on different threads; the read happens under the lock, so a byte read is accounted
 * for ({@code closeAfterAnswer}) before {@code stop} returns. {@code onGone} runs outside the lock, except when the
 * connection fails the watch's read interest as it is registered: then within {@code start}.
 */
final class ClientGoneWatch {

    /** Withdraws the watch's read interest ({@link #stop}). */
    private static final CancellationException STOPPED = new CancellationException("the watch stopped");

    private final EndPoint endPoint;
    /** The connection's read interest, or null when the connection is of a kind whose interest cannot be withdrawn. */
    private final FillInterest fillInterest;
    private final ByteBuffer oneByte = BufferUtil.allocate(1);
    /** What runs when the client has gone; non-null while the watch is started. Guarded by this. */
    private Runnable onGone;
    /**
     * The read the watch registered with the connection and that has not been called back yet, or null. Each
     * registration is a new {@link Read}, so a call-back that arrives late, after a stop and a new start, is told
     * from the current one and ignored. Non-null only while {@link #onGone} is. Guarded by this.
     */
    private Read registered;
    private volatile boolean closeAfterAnswer;

    ClientGoneWatch(EndPoint endPoint) {
        this.endPoint = endPoint;
        this.fillInterest = endPoint instanceof AbstractEndPoint abstractEndPoint ? abstractEndPoint.getFillInterest() : null;
    }

    /**
     * Watches the connection until {@link #stop}: {@code onGone} runs if the client goes away meanwhile. Does nothing
     * while the watch is started, after it saw more bytes ({@link #closeAfterAnswer}), or when something else (Jetty)
     * reads the connection.
     */
    synchronized void start(Runnable onGone) {
        if (fillInterest == null || this.onGone != null || closeAfterAnswer || !endPoint.isOpen()) {
            return;
        }
        this.onGone = onGone;
        register();
    }

    /** Ends the watch, withdrawing its read interest; after it returns the watch reads nothing. Idempotent. */
    synchronized void stop() {
        onGone = null;
        if (registered != null) {
            registered = null;
            // the connection's read interest is the watch's: nothing else registers one while the watch is started
            // (the caller's contract), and a read the connection just took out calls back to find itself outdated
            fillInterest.onFail(STOPPED);
        }
    }

    /**
     * Whether the client sent more while its request waited (the start of a pipelined request, which the watch read
     * and cannot give back): the connection must close after the answer to the current request.
     */
    boolean closeAfterAnswer() {
        return closeAfterAnswer;
    }

    /**
     * Registers a new read interest. Noted first: should the connection fail it at once, its call-back (on this thread,
     * under this same lock) finds it current.
     */
    private synchronized void register() {
        Read read = new Read();
        registered = read;
        if (!endPoint.tryFillInterested(read)) {
            registered = null;
            onGone = null; // another read interest is registered: Jetty reads, so there is nothing to watch
        }
    }

    private void readable(Read read) {
        Runnable gone;
        synchronized (this) {
            if (read != registered) {
                return; // stopped meanwhile
            }
            registered = null;
            int bytes;
            try {
                bytes = endPoint.fill(oneByte);
            } catch (IOException reset) {
                bytes = -1;
            }
            BufferUtil.clear(oneByte);
            if (bytes == 0) { // nothing after all
                register();
                return;
            }
            gone = onGone;
            onGone = null;
            if (bytes > 0) {
                closeAfterAnswer = true;
                return;
            }
        }
        left(gone);
    }

    private void readFailed(Read read) {
        Runnable gone;
        synchronized (this) {
            if (read != registered) {
                return; // withdrawn by stop, or outdated
            }
            registered = null;
            gone = onGone; // the connection closed (the client reset it, or the balancer stops)
            onGone = null;
        }
        left(gone);
    }

    private void left(Runnable gone) {
        endPoint.close();
        gone.run();
    }

    /** One registration of the watch's read interest; runs on a pool thread (the default, blocking invocation type). */
    private final class Read implements Callback {

        @Override
        public void succeeded() {
            readable(this);
        }

        @Override
        public void failed(Throwable failure) {
            readFailed(this);
        }
    }
}
