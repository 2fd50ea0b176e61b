package io.cohort.replication.engine;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How the {@link AsyncSender} may group queued dispatches of one lane, as a {@link SessionTransport}
 * asks for it (a database writes several changes in one transaction; a group sends several in one
 * message). A lane that takes a dispatch also takes whatever else is queued and, while it has fewer
 * than {@code maxSize} and it is busy (woken less than {@code linger} before or, with
 * {@link CallerSends#WHEN_QUIET}, its dispatches arriving less than {@code linger} apart), sleeps once for
 * {@code linger} and takes what arrived meanwhile; then it hands the group, in queue order, to
 * {@code sender}. It sleeps rather than waiting on the queue, so the dispatches arriving meanwhile do
 * not each wake it; a lane woken rarely sends at once. The order of the changes of one session is
 * kept, since a session always uses the same lane.
 *
 * <p>A transport whose sending does not wait on the network (a group channel: JGroups' non-blocking
 * transport keeps what the socket cannot take at once; only flow control may hold a send) may let the
 * caller send when the lane is idle ({@code callerSends}, see {@link CallerSends}): the request thread
 * then sends its dispatch itself,
 * under the lane's send lock, instead of waking the lane's thread for it. That saves a thread hand-off
 * per change at ordinary rates, where lanes are mostly idle; under load, changes queue and group as
 * before. A transport whose sending waits on the network (a database write) must not
 * ({@link CallerSends#NEVER}): the request would wait for it.
 *
 * @param maxSize     most dispatches in one group (1: no grouping)
 * @param linger      how long a busy lane sleeps for others to join a group that has room (zero: no sleep)
 * @param sender      sends a group; must treat each dispatch as {@link Dispatch#send()} would, never throw
 * @param callerSends when the caller sends a dispatch itself, if ever
 */
public record Batching(int maxSize, Duration linger, Consumer<List<Dispatch>> sender, CallerSends callerSends) {

    /** One dispatch at a time, always by the lane's thread. */
    public static final Batching NONE = oneAtATime(CallerSends.NEVER);

    /** One dispatch at a time; {@code callerSends} as for the record. */
    public static Batching oneAtATime(CallerSends callerSends) {
        return new Batching(1, Duration.ZERO, group -> group.forEach(Dispatch::send), callerSends);
    }

    public Batching {
        if (maxSize < 1) {
            throw new IllegalArgumentException("maxSize must be at least 1: " + maxSize);
        }
        Objects.requireNonNull(linger, "linger");
        Objects.requireNonNull(sender, "sender");
        Objects.requireNonNull(callerSends, "callerSends");
    }

    /** Whether a lane may group dispatches: groups of more than one and a linger to gather them in. */
    public boolean groups() {
        return maxSize > 1 && !linger.isZero();
    }
}
