package io.cohort.replication.wire;

import java.util.List;

/**
 * Several frames for the same destination carried by one group message, so that a busy node pays
 * the group's per-message costs (sequence numbers, encryption, acknowledgements, a wake-up of the
 * receiving thread) once for what its send queue held instead of once per change. A bundle is
 * <pre>
 *   magic 0xC8 | format 1 | count (varint) | count × (length (varint) | frame)
 * </pre>
 * The frames inside are not sealed one by one: where frames are sealed, the bundle is sealed as one message, so a
 * forged or damaged bundle is rejected whole before any frame in it is read. A bundle never contains a bundle. {@link #regions} checks the whole
 * structure before the first frame is handed on, so a malformed bundle delivers nothing.
 */
public final class FrameBundle {

    /** The most frames one bundle may carry; a receiver rejects bundles that claim more. */
    public static final int MAX_FRAMES = 1024;

    private static final int MAGIC = 0xC8;
    private static final int FORMAT = 1;

    private FrameBundle() {
    }

    /** Whether a received payload is a bundle (rather than a single frame). */
    public static boolean isBundle(byte[] payload, int offset, int length) {
        return length > 0 && (payload[offset] & 0xFF) == MAGIC;
    }

    /** The bundle of {@code frames}, in this order; at least 1, at most {@link #MAX_FRAMES}. */
    public static byte[] encode(List<byte[]> frames) {
        if (frames.isEmpty() || frames.size() > MAX_FRAMES) {
            throw new IllegalArgumentException("a bundle holds 1 to " + MAX_FRAMES + " frames: " + frames.size());
        }
        int size = 8;
        for (byte[] frame : frames) {
            size += frame.length + 5;
        }
        WireWriter out = new WireWriter(size);
        out.writeByte(MAGIC).writeByte(FORMAT).writeVarLong(frames.size());
        for (byte[] frame : frames) {
            out.writeBytes(frame);
        }
        return out.toByteArray();
    }

    /**
     * The frames of a bundle as {@code offset, length} pairs into {@code payload}:
     * {@code result[2 * i]} is where frame {@code i} starts, {@code result[2 * i + 1]} its length.
     *
     * @throws MalformedMessageException if the payload is not a well-formed bundle: bad magic or
     *     format, a count over {@link #MAX_FRAMES} or zero, a length past the end, trailing bytes
     */
    public static int[] regions(byte[] payload, int offset, int length) throws MalformedMessageException {
        WireReader in = new WireReader(payload, offset, length);
        if (in.readByte() != MAGIC) {
            throw new MalformedMessageException("not a frame bundle (bad magic)");
        }
        int format = in.readByte();
        if (format != FORMAT) {
            throw new MalformedMessageException("unsupported bundle format " + format);
        }
        int count = in.readCount(MAX_FRAMES, "bundle frame count");
        if (count == 0) {
            throw new MalformedMessageException("empty frame bundle");
        }
        int[] regions = new int[2 * count];
        for (int i = 0; i < count; i++) {
            int frameLength = in.readLength(length, "bundled frame");
            regions[2 * i] = in.position();
            regions[2 * i + 1] = frameLength;
            in.skip(frameLength);
        }
        in.expectEnd();
        return regions;
    }
}
