package io.cohort.replication.wire;

import io.cohort.cluster.Member;
import io.cohort.replication.engine.SessionChange;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything members of a replication group say to each other. Encoded by {@link MessageCodec};
 * never Java-serialized. A {@code correlation} of {@link #NO_CORRELATION} means "no answer wanted".
 *
 * <p>Who sends what: the owner of a session sends {@link SessionUpdate}, {@link SessionRemoved},
 * {@link ReleaseCopy} and {@link Touch} to the holders of its copies; a holder answers
 * {@link Acknowledgement} when asked and {@link FullCopyRequest} when it detects a version gap; a
 * member missing a session sends {@link Lookup}, gets {@link LookupReply}, and announces
 * {@link TakenOver} when it becomes the owner. {@link Hello} tells new members who the sender is.
 * While a session has no owner, its custodian (a holder) sends {@link SessionUpdate} and
 * {@link ReleaseCopy} as its owner would. A member that removed sessions while others were out of its
 * view sends them {@link MissedRemovals} when they are back, and meanwhile gives each removal to the members present as
 * a {@link SharedRemoval}, so that they tell the others should it be gone by then.
 */
public sealed interface ReplicationMessage {

    /** A message about one application's sessions. */
    sealed interface ForApplication extends ReplicationMessage {

        /** The application the message is about, as the sender names it. */
        String application();
    }

    long NO_CORRELATION = 0;

    /** The sender's member data, sent to members that joined the view. */
    record Hello(Member member) implements ReplicationMessage {
        public Hello {
            Objects.requireNonNull(member, "member");
        }
    }

    /** A change the holder applies in version order; acknowledged after applying if correlated. */
    record SessionUpdate(String application, long correlation, SessionChange change) implements ForApplication {
        public SessionUpdate {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(change, "change");
        }
    }

    /**
     * The owner invalidated the session or it expired: the copy goes and never comes back. Acknowledged after
     * removing if correlated (synchronous delivery), whether or not the receiver held a copy.
     */
    record SessionRemoved(String application, long correlation, String sessionId, RemovalCause cause)
            implements ForApplication {
        public SessionRemoved {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(cause, "cause");
        }
    }

    /** The holder is no longer in the session's placement: drop the copy if it is not newer. */
    record ReleaseCopy(String application, String sessionId, long version) implements ForApplication {
        public ReleaseCopy {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** The session was used without changes: keeps the copy's last-access time current. */
    record Touch(String application, String sessionId, long version, Instant lastAccessed)
            implements ForApplication {
        public Touch {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
            Objects.requireNonNull(lastAccessed, "lastAccessed");
        }
    }

    /** A holder applied (or deliberately ignored) the correlated update. */
    record Acknowledgement(long correlation) implements ReplicationMessage {
    }

    /** A holder saw a version gap (or has no copy to apply a delta to) and asks the owner for all of it. */
    record FullCopyRequest(String application, String sessionId, long correlation) implements ForApplication {
        public FullCopyRequest {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** Does the receiver hold a copy of this session? */
    record Lookup(String application, String sessionId, long correlation) implements ForApplication {
        public Lookup {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
        }
    }

    /** The answer to a {@link Lookup}: the receiver's copy, or empty. */
    record LookupReply(long correlation, Optional<StoredSession> copy) implements ReplicationMessage {
        public LookupReply {
            Objects.requireNonNull(copy, "copy");
        }
    }

    /**
     * The sender now owns the session at {@code version}; {@code holders} are the members it places
     * copies on. Others drop their copy; a listed holder keeps a copy of exactly that version.
     */
    record TakenOver(String application, String sessionId, long version, List<String> holders)
            implements ForApplication {
        public TakenOver {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(sessionId, "sessionId");
            holders = List.copyOf(holders);
        }
    }

    /**
     * Sessions the sender removed (invalidated, or retired the id of) while the receiver was out of its view, e.g. on
     * the other side of a network partition that has healed, so the {@link SessionRemoved} never reached it. The
     * receiver drops its copy of each, and stops owning it, unless what it has is newer than the removed version (a
     * member on its side of the partition went on with the session); a member that removed a copy it placed itself
     * (as custodian) passes the removals on to every member. At most {@link #MAX_REMOVALS} per message.
     */
    record MissedRemovals(String application, List<Removed> removals) implements ForApplication {

        /** The most removals one message carries; a sender splits more into several messages. */
        public static final int MAX_REMOVALS = 512;

        public MissedRemovals {
            Objects.requireNonNull(application, "application");
            removals = List.copyOf(removals);
            if (removals.isEmpty() || removals.size() > MAX_REMOVALS) {
                throw new IllegalArgumentException("1 to " + MAX_REMOVALS + " removals, not " + removals.size());
            }
        }

        /**
         * One removed session: its id and the version it had when it was removed ({@link Long#MAX_VALUE} when the
         * sender did not know it: the removal then wins over any version).
         */
        public record Removed(String sessionId, long version) {
            public Removed {
                Objects.requireNonNull(sessionId, "sessionId");
                if (version < 0) {
                    throw new IllegalArgumentException("negative version " + version);
                }
            }
        }
    }

    /**
     * The sender removed the session (invalidated it, or retired its id) while members were out of its view, and the
     * receiver was in it: the receiver keeps the removal for the members its own view lacks, until {@code keepUntil},
     * and sends it to them as {@link MissedRemovals} when they appear in its view, as the sender does, in case the
     * sender is gone by then (it crashed or stopped before the partition healed). The receiver drops nothing for it
     * (the holders of the session's copies get a {@link SessionRemoved} as ever). {@code keepUntil} is
     * {@link #FOR_GOOD} for a session that does not expire; the wire carries it as epoch milliseconds, from 0.
     */
    record SharedRemoval(String application, MissedRemovals.Removed removal, Instant keepUntil)
            implements ForApplication {

        /** The latest instant the wire carries (epoch milliseconds in a long): a removal kept as long as there is room. */
        public static final Instant FOR_GOOD = Instant.ofEpochMilli(Long.MAX_VALUE);

        public SharedRemoval {
            Objects.requireNonNull(application, "application");
            Objects.requireNonNull(removal, "removal");
            Objects.requireNonNull(keepUntil, "keepUntil");
            if (keepUntil.isAfter(FOR_GOOD)) {
                keepUntil = FOR_GOOD;
            } else if (keepUntil.isBefore(Instant.EPOCH)) {
                keepUntil = Instant.EPOCH;
            }
        }
    }
}
