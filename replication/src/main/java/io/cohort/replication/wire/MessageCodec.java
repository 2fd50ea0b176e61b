package io.cohort.replication.wire;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.Acknowledgement;
import io.cohort.replication.wire.ReplicationMessage.FullCopyRequest;
import io.cohort.replication.wire.ReplicationMessage.Hello;
import io.cohort.replication.wire.ReplicationMessage.Lookup;
import io.cohort.replication.wire.ReplicationMessage.LookupReply;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionRemoved;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.SharedRemoval;
import io.cohort.replication.wire.ReplicationMessage.TakenOver;
import io.cohort.replication.wire.ReplicationMessage.Touch;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The binary form of {@link ReplicationMessage}s. A frame is
 * <pre>
 *   magic 0xC7 | format 2 | type | body
 * </pre>
 * Bodies are fields in declaration order: varints for numbers (zig-zag where negative values are
 * possible), UTF-8 strings and byte arrays prefixed by their varint length, enums as one byte.
 * A one-attribute change of 1 KiB under a 32-character id costs about 60 bytes of framing.
 *
 * <p>Decoding checks every length against {@link WireLimits} and the frame's remaining size,
 * rejects unknown types and enum codes and trailing bytes, and reports all of it as
 * {@link MalformedMessageException}. A secured group seals each message around its frames ({@link FrameSeal}).
 * Thread-safe.
 */
public final class MessageCodec {

    private static final int MAGIC = 0xC7;
    private static final int FORMAT = 2;
    private static final int HEADER = 3;

    private final WireLimits limits;

    public MessageCodec(WireLimits limits) {
        this.limits = limits;
    }

    public byte[] encode(ReplicationMessage message) {
        WireWriter out = new WireWriter(estimate(message));
        out.writeByte(MAGIC).writeByte(FORMAT).writeByte(MessageType.of(message).code);
        writeBody(out, message);
        return out.toByteArray();
    }

    private void writeBody(WireWriter out, ReplicationMessage message) {
        if (message instanceof Hello m) {
            writeMember(out, m.member());
        } else if (message instanceof SessionUpdate m) {
            out.writeString(m.application()).writeVarLong(m.correlation());
            writeChange(out, m.change());
        } else if (message instanceof SessionRemoved m) {
            out.writeString(m.application()).writeVarLong(m.correlation()).writeString(m.sessionId())
                    .writeByte(m.cause().ordinal());
        } else if (message instanceof ReleaseCopy m) {
            out.writeString(m.application()).writeString(m.sessionId()).writeVarLong(m.version());
        } else if (message instanceof Touch m) {
            out.writeString(m.application()).writeString(m.sessionId()).writeVarLong(m.version())
                    .writeInstant(m.lastAccessed());
        } else if (message instanceof Acknowledgement m) {
            out.writeVarLong(m.correlation());
        } else if (message instanceof FullCopyRequest m) {
            out.writeString(m.application()).writeString(m.sessionId()).writeVarLong(m.correlation());
        } else if (message instanceof Lookup m) {
            out.writeString(m.application()).writeString(m.sessionId()).writeVarLong(m.correlation());
        } else if (message instanceof LookupReply m) {
            out.writeVarLong(m.correlation()).writeByte(m.copy().isPresent() ? 1 : 0);
            m.copy().ifPresent(copy -> writeChange(out, SessionChange.full(copy)));
        } else if (message instanceof TakenOver m) {
            out.writeString(m.application()).writeString(m.sessionId()).writeVarLong(m.version())
                    .writeVarLong(m.holders().size());
            m.holders().forEach(out::writeString);
        } else if (message instanceof MissedRemovals m) {
            out.writeString(m.application()).writeVarLong(m.removals().size());
            m.removals().forEach(r -> out.writeString(r.sessionId()).writeVarLong(r.version()));
        } else if (message instanceof SharedRemoval m) {
            out.writeString(m.application()).writeString(m.removal().sessionId()).writeVarLong(m.removal().version())
                    .writeVarLong(m.keepUntil().toEpochMilli());
        } else {
            throw new IllegalArgumentException("unknown message " + message);
        }
    }

    public ReplicationMessage decode(byte[] frame, int offset, int length) throws MalformedMessageException {
        if (length < HEADER) {
            throw new MalformedMessageException("frame of " + length + " bytes is too short");
        }
        WireReader in = new WireReader(frame, offset, length);
        if (in.readByte() != MAGIC) {
            throw new MalformedMessageException("not a replication frame (bad magic)");
        }
        int format = in.readByte();
        if (format != FORMAT) {
            throw new MalformedMessageException("unsupported wire format " + format);
        }
        ReplicationMessage message = switch (MessageType.of(in.readByte())) {
            case HELLO -> new Hello(readMember(in));
            case UPDATE -> new SessionUpdate(name(in, "application"), in.readNonNegative("correlation"),
                    readChange(in));
            case REMOVED -> new SessionRemoved(name(in, "application"), in.readNonNegative("correlation"),
                    name(in, "session id"),
                    enumValue(RemovalCause.values(), in.readByte(), "removal cause"));
            case RELEASE -> new ReleaseCopy(name(in, "application"), name(in, "session id"),
                    in.readNonNegative("version"));
            case TOUCH -> new Touch(name(in, "application"), name(in, "session id"), in.readNonNegative("version"),
                    in.readInstant());
            case ACK -> new Acknowledgement(in.readNonNegative("correlation"));
            case FULL_COPY_REQUEST -> new FullCopyRequest(name(in, "application"), name(in, "session id"),
                    in.readNonNegative("correlation"));
            case LOOKUP -> new Lookup(name(in, "application"), name(in, "session id"), in.readNonNegative("correlation"));
            case LOOKUP_REPLY -> readLookupReply(in);
            case TAKEN_OVER -> readTakenOver(in);
            case MISSED_REMOVALS -> readMissedRemovals(in);
            case SHARED_REMOVAL -> new SharedRemoval(name(in, "application"),
                    new MissedRemovals.Removed(name(in, "session id"), in.readNonNegative("version")),
                    Instant.ofEpochMilli(in.readNonNegative("keep until")));
        };
        in.expectEnd();
        return message;
    }

    public ReplicationMessage decode(byte[] frame) throws MalformedMessageException {
        return decode(frame, 0, frame.length);
    }

    private LookupReply readLookupReply(WireReader in) throws MalformedMessageException {
        long correlation = in.readNonNegative("correlation");
        int found = in.readByte();
        if (found > 1) {
            throw new MalformedMessageException("bad presence flag " + found);
        }
        if (found == 0) {
            return new LookupReply(correlation, Optional.empty());
        }
        SessionChange copy = readChange(in);
        if (copy.kind() != ChangeKind.FULL) {
            throw new MalformedMessageException("a looked-up copy must be complete");
        }
        return new LookupReply(correlation, Optional.of(copy.applyTo(null)));
    }

    private TakenOver readTakenOver(WireReader in) throws MalformedMessageException {
        String application = name(in, "application");
        String id = name(in, "session id");
        long version = in.readNonNegative("version");
        int count = in.readCount(limits.maxMembers(), "holder count");
        List<String> holders = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            holders.add(name(in, "holder"));
        }
        return new TakenOver(application, id, version, holders);
    }

    private MissedRemovals readMissedRemovals(WireReader in) throws MalformedMessageException {
        String application = name(in, "application");
        int count = in.readCount(MissedRemovals.MAX_REMOVALS, "removal count");
        if (count == 0) {
            throw new MalformedMessageException("no removals");
        }
        List<MissedRemovals.Removed> removals = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            removals.add(new MissedRemovals.Removed(name(in, "session id"), in.readNonNegative("version")));
        }
        return new MissedRemovals(application, removals);
    }

    private void writeChange(WireWriter out, SessionChange change) {
        out.writeString(change.id()).writeVarLong(change.version()).writeByte(change.kind().ordinal())
                .writeInstant(change.created()).writeInstant(change.lastAccessed())
                .writeSignedVarLong(change.maxInactiveMillis()).writeVarLong(change.values().size());
        change.values().forEach((name, value) -> out.writeString(name).writeBytes(value));
        out.writeVarLong(change.removed().size());
        change.removed().forEach(out::writeString);
    }

    private SessionChange readChange(WireReader in) throws MalformedMessageException {
        String id = name(in, "session id");
        long version = in.readNonNegative("version");
        ChangeKind kind = enumValue(ChangeKind.values(), in.readByte(), "change kind");
        var created = in.readInstant();
        var lastAccessed = in.readInstant();
        long maxInactive = in.readSignedVarLong();
        int valueCount = in.readCount(limits.maxAttributes(), "attribute count");
        Map<String, byte[]> values = new HashMap<>(Math.min(valueCount, 64) * 2);
        for (int i = 0; i < valueCount; i++) {
            String name = name(in, "attribute name");
            if (values.put(name, in.readBytes(limits.maxValueBytes(), "attribute value")) != null) {
                throw new MalformedMessageException("an attribute appears twice: " + name);
            }
        }
        int removedCount = in.readCount(limits.maxAttributes(), "removed count");
        Set<String> removed = new HashSet<>();
        for (int i = 0; i < removedCount; i++) {
            removed.add(name(in, "removed attribute name"));
        }
        if (kind == ChangeKind.FULL && !removed.isEmpty()) {
            throw new MalformedMessageException("a full copy lists removed attributes");
        }
        return new SessionChange(id, version, kind, created, lastAccessed, maxInactive, values, removed);
    }

    private void writeMember(WireWriter out, Member member) {
        out.writeString(member.name()).writeString(member.route()).writeString(member.host())
                .writeString(member.httpAddress().toString()).writeString(member.adminAddress().toString());
    }

    private Member readMember(WireReader in) throws MalformedMessageException {
        String name = name(in, "member name");
        String route = name(in, "route");
        String host = name(in, "host");
        try {
            return new Member(name, route, host, new URI(name(in, "http address")), new URI(name(in, "admin address")));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new MalformedMessageException("bad member data: " + e.getMessage());
        }
    }

    private String name(WireReader in, String what) throws MalformedMessageException {
        return in.readString(limits.maxNameBytes(), what);
    }

    private static <E extends Enum<E>> E enumValue(E[] values, int code, String what) throws MalformedMessageException {
        if (code >= values.length) {
            throw new MalformedMessageException("unknown " + what + " " + code);
        }
        return values[code];
    }

    private static int estimate(ReplicationMessage message) {
        if (message instanceof SessionUpdate update) {
            return (int) Math.min(Integer.MAX_VALUE - 64, 96 + update.change().valueBytes()
                    + 16L * update.change().attributeCount());
        }
        if (message instanceof MissedRemovals missed) {
            return 64 + missed.removals().size() * 48;
        }
        if (message instanceof LookupReply reply && reply.copy().isPresent()) {
            return (int) Math.min(Integer.MAX_VALUE - 64, 96 + reply.copy().get().attributeBytes()
                    + 16L * reply.copy().get().attributes().size());
        }
        return 64;
    }

    /** The one-byte type codes; never reuse a code. */
    private enum MessageType {
        HELLO(1), UPDATE(2), REMOVED(3), RELEASE(4), TOUCH(5), ACK(6), FULL_COPY_REQUEST(7), LOOKUP(8),
        LOOKUP_REPLY(9), TAKEN_OVER(10), MISSED_REMOVALS(11), SHARED_REMOVAL(12);

        private final int code;

        MessageType(int code) {
            this.code = code;
        }

        static MessageType of(int code) throws MalformedMessageException {
            for (MessageType type : values()) {
                if (type.code == code) {
                    return type;
                }
            }
            throw new MalformedMessageException("unknown message type " + code);
        }

        static MessageType of(ReplicationMessage message) {
            if (message instanceof Hello) {
                return HELLO;
            } else if (message instanceof SessionUpdate) {
                return UPDATE;
            } else if (message instanceof SessionRemoved) {
                return REMOVED;
            } else if (message instanceof ReleaseCopy) {
                return RELEASE;
            } else if (message instanceof Touch) {
                return TOUCH;
            } else if (message instanceof Acknowledgement) {
                return ACK;
            } else if (message instanceof FullCopyRequest) {
                return FULL_COPY_REQUEST;
            } else if (message instanceof Lookup) {
                return LOOKUP;
            } else if (message instanceof LookupReply) {
                return LOOKUP_REPLY;
            } else if (message instanceof TakenOver) {
                return TAKEN_OVER;
            } else if (message instanceof MissedRemovals) {
                return MISSED_REMOVALS;
            } else if (message instanceof SharedRemoval) {
                return SHARED_REMOVAL;
            }
            throw new IllegalArgumentException("unknown message " + message);
        }
    }
}
