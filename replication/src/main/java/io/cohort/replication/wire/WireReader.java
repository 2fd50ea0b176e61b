package io.cohort.replication.wire;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Reads what {@link WireWriter} wrote, from a frame received off the network: every read is
 * checked against the bytes left in the frame and against an explicit bound, and any violation is a
 * {@link MalformedMessageException}, never an {@code ArrayIndexOutOfBoundsException} or an
 * allocation the frame's size does not justify. Not thread-safe.
 */
final class WireReader {

    private final byte[] frame;
    private final int end;
    private int position;

    WireReader(byte[] frame, int offset, int length) {
        this.frame = frame;
        this.position = offset;
        this.end = offset + length;
    }

    int readByte() throws MalformedMessageException {
        if (position >= end) {
            throw new MalformedMessageException("frame ends early");
        }
        return frame[position++] & 0xFF;
    }

    long readVarLong() throws MalformedMessageException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = readByte();
            value |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (shift == 63 && b > 1) {
                    break;
                }
                return value;
            }
        }
        throw new MalformedMessageException("varint longer than 64 bits");
    }

    long readSignedVarLong() throws MalformedMessageException {
        long raw = readVarLong();
        return (raw >>> 1) ^ -(raw & 1);
    }

    /**
     * A non-negative varint that must not exceed {@code max}. A ten-byte varint can decode to a negative long (an
     * unsigned value of 2^63 or more): that is refused too, before any array or collection is sized by it.
     */
    int readCount(int max, String what) throws MalformedMessageException {
        long value = readVarLong();
        if (value < 0) {
            throw new MalformedMessageException(what + " is negative");
        }
        if (value > max) {
            throw new MalformedMessageException(what + " " + value + " exceeds the limit " + max);
        }
        return (int) value;
    }

    /** A version or correlation number: non-negative. */
    long readNonNegative(String what) throws MalformedMessageException {
        long value = readVarLong();
        if (value < 0) {
            throw new MalformedMessageException(what + " is negative");
        }
        return value;
    }

    Instant readInstant() throws MalformedMessageException {
        long millis = readSignedVarLong();
        try {
            return Instant.ofEpochMilli(millis);
        } catch (java.time.DateTimeException e) {
            throw new MalformedMessageException("timestamp out of range: " + millis);
        }
    }

    String readString(int maxBytes, String what) throws MalformedMessageException {
        int length = readLength(maxBytes, what);
        try {
            String value = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(frame, position, length)).toString();
            position += length;
            return value;
        } catch (CharacterCodingException e) {
            throw new MalformedMessageException(what + " is not valid UTF-8");
        }
    }

    byte[] readBytes(int maxBytes, String what) throws MalformedMessageException {
        int length = readLength(maxBytes, what);
        byte[] value = Arrays.copyOfRange(frame, position, position + length);
        position += length;
        return value;
    }

    /** Where the next read starts, as an index into the frame's array. */
    int position() {
        return position;
    }

    /** Skips {@code length} bytes that {@link #readLength} vouched for. */
    void skip(int length) {
        position += length;
    }

    void expectEnd() throws MalformedMessageException {
        if (position != end) {
            throw new MalformedMessageException((end - position) + " unexpected trailing bytes");
        }
    }

    /** A length prefix of at most {@code max} that does not reach past the frame's end. */
    int readLength(int max, String what) throws MalformedMessageException {
        int length = readCount(max, what + " length");
        if (length > end - position) {
            throw new MalformedMessageException(what + " length " + length + " exceeds the frame");
        }
        return length;
    }
}
