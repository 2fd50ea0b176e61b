package io.cohort.bench.replication;

import io.cohort.replication.engine.SessionChange;

/**
 * Bytes on the wire for one change versus the serialized size of the values it carries.
 *
 * @param change       which change
 * @param valueBytes   serialized size of the changed attribute values (what the application stored)
 * @param frameBytes   the replication frame (header, application, session id, version, times,
 *                     attribute names, length prefixes, values) as MessageCodec encodes it
 * @param sealedBytes  the same frame with the seal trailer of a secured cluster (sequence, time, HMAC)
 */
public record WireSize(ShopChange change, long valueBytes, int frameBytes, int sealedBytes) {

    public static WireSize measure(ShopChange change) {
        HotPath plain = new HotPath(change, false);
        plain.setAttribute();
        SessionChange delta = plain.snapshot();
        int frame = plain.prepare(delta).length;
        HotPath sealed = new HotPath(change, true);
        sealed.setAttribute();
        int sealedFrame = sealed.prepare(sealed.snapshot()).length;
        return new WireSize(change, delta.valueBytes(), frame, sealedFrame);
    }

    public long framingBytes() {
        return frameBytes - valueBytes;
    }

    /** Framing as a share of the payload, in percent. */
    public double framingPercent() {
        return 100.0 * framingBytes() / valueBytes;
    }

    public double sealedFramingPercent() {
        return 100.0 * (sealedBytes - valueBytes) / valueBytes;
    }
}
