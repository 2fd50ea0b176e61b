package io.cohort.replication.group;

import java.io.DataInput;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.jgroups.util.ByteArrayDataInputStream;
import org.jgroups.util.ByteBufferInputStream;

/**
 * What is left of the bytes the transport received, while JGroups reads one message out of them: a byte array
 * (datagrams, and blocking TCP through {@link BufferedTcp}) or a byte buffer (non-blocking TCP).
 */
final class ArrivalInput {

    private ArrivalInput() {
    }

    /** Bytes left to read; unbounded for an input that is not one received buffer. */
    static int remaining(DataInput in) {
        if (in instanceof ByteArrayDataInputStream received) {
            return received.limit() - received.position();
        }
        if (in instanceof ByteBufferInputStream received) {
            return received.buf().remaining();
        }
        return Integer.MAX_VALUE;
    }

    /**
     * Skips the rest of the received bytes, so the payload of a refused message is never built. In a bundle of
     * messages the ones after it go too (they came from the same sender, on the same connection).
     */
    static void skipRest(DataInput in) throws IOException {
        if (in instanceof ByteArrayDataInputStream received) {
            received.advance(received.limit() - received.position());
        } else if (in instanceof ByteBufferInputStream received) {
            ByteBuffer buffer = received.buf();
            buffer.position(buffer.limit());
        } else {
            throw new IOException("refused message outside a received buffer");
        }
    }
}
