package io.cohort.replication.wire;

/**
 * Upper bounds the decoder enforces on every length it reads, on top of the frame's own size (a
 * length never exceeds the bytes left in the frame, so a small frame cannot make the receiver
 * allocate much).
 *
 * @param maxNameBytes   the longest application name, session id, attribute name or member field
 * @param maxValueBytes  the largest serialized attribute value
 * @param maxAttributes  the most attributes (or removed names) in one session change
 * @param maxMembers     the most member names in one message
 */
public record WireLimits(int maxNameBytes, int maxValueBytes, int maxAttributes, int maxMembers) {

    /** Generous bounds for sessions: 4 KiB names, 64 MiB values, 100 000 attributes, 1 000 members. */
    public static final WireLimits DEFAULT = new WireLimits(4096, 64 << 20, 100_000, 1000);

    public WireLimits {
        if (maxNameBytes < 1 || maxValueBytes < 1 || maxAttributes < 1 || maxMembers < 1) {
            throw new IllegalArgumentException("wire limits must be positive");
        }
    }
}
