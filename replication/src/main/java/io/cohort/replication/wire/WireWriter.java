package io.cohort.replication.wire;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Appends primitives to a growable byte array in the replication wire format: unsigned LEB128
 * variable-length integers for counts, lengths and versions, zig-zag varints for values that may be
 * negative, UTF-8 strings and byte arrays prefixed by their varint length. Not thread-safe.
 */
final class WireWriter {

    private byte[] buffer;
    private int size;

    WireWriter(int initialCapacity) {
        this.buffer = new byte[Math.max(16, initialCapacity)];
    }

    WireWriter writeByte(int value) {
        ensure(1);
        buffer[size++] = (byte) value;
        return this;
    }

    /** A non-negative long in 1 to 10 bytes. */
    WireWriter writeVarLong(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value for an unsigned varint: " + value);
        }
        return writeUnsignedVarLong(value);
    }

    /** Any long, zig-zag encoded so small negative numbers stay short; every long {@link WireReader} reads. */
    WireWriter writeSignedVarLong(long value) {
        return writeUnsignedVarLong((value << 1) ^ (value >> 63));
    }

    /** {@code value}'s 64 bits as an unsigned varint (up to ten bytes). */
    private WireWriter writeUnsignedVarLong(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            buffer[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        buffer[size++] = (byte) value;
        return this;
    }

    WireWriter writeInstant(Instant instant) {
        return writeSignedVarLong(instant.toEpochMilli());
    }

    WireWriter writeString(String value) {
        return writeBytes(value.getBytes(StandardCharsets.UTF_8));
    }

    WireWriter writeBytes(byte[] value) {
        writeVarLong(value.length);
        writeRaw(value, 0, value.length);
        return this;
    }

    WireWriter writeRaw(byte[] value, int offset, int length) {
        ensure(length);
        System.arraycopy(value, offset, buffer, size, length);
        size += length;
        return this;
    }

    int size() {
        return size;
    }

    byte[] buffer() {
        return buffer;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buffer, size);
    }

    private void ensure(int more) {
        if (size + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, size + more));
        }
    }
}
