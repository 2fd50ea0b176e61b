package io.cohort.replication.group;

import io.cohort.replication.wire.ReplicationMessage.MissedRemovals.Removed;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The sessions one application's transport removed (invalidated, or retired the id of) that members out of this
 * node's view may hold a copy of, so they can be told once they are back in it: a member on the other side of a
 * network partition never got the {@code SessionRemoved} (the view had dropped it), and without being told it would
 * keep the copy, and answer lookups with it, for as long as its sweeper lets it.
 *
 * <p>Which member is owed a removal: one that was not a member when the session was removed (it was cut off, or it
 * joined the group on the other side of a partition), and one that left the view less than the delivery window after
 * the removal, or before it (a removal sent just before the view dropped a member can be lost with the connection).
 * Members are named; a member is told what it is owed each time it appears in the view again (a repeat is harmless:
 * removals are idempotent).
 *
 * <p>How long a removal is kept: one made while every member was present, and no member left within the delivery window
 * after it, reached everyone and is forgotten after that window. Any other is kept until the copies of it would have
 * been swept anyway ({@code keepUntil}: its last access plus twice its inactive interval; never, for a session that
 * does not expire). A member that left for good (crashed, or stopped) looks the same as one cut off, so after such a
 * departure removals are kept that long too, but only for {@link #PRESUMED_GONE_AFTER}: a member out of the view for
 * longer is presumed gone, and removals made after that are kept for nobody (were it cut off after all, it is told of
 * those made before). Without that bound, one crashed member that never came back would keep every later removal of a
 * busy application until the ledger overflowed. A ledger younger than {@link #PRESUMED_GONE_AFTER} cannot know who left
 * before it began (its node restarted, or its application was deployed, while members were cut off), so it keeps every
 * removal as if a member were out of the view: a member that appears later than the removal is owed it. At most
 * {@link #MAX_REMOVALS} are kept, the oldest forgotten first ({@link #remember} says so; the caller counts it).
 *
 * <p>A removal kept for members out of the view is also given to the members present ({@link #remember} says so), who
 * {@link #keep} it in a ledger of their own: should the remover be gone when such a member comes back, they tell it.
 *
 * <p>Thread-safe: removals are recorded by request threads, membership changes by the rebalancer's thread.
 */
final class RemovalLedger {

    /** The most removals kept; beyond it the oldest are forgotten. */
    static final int MAX_REMOVALS = 100_000;
    /** How long a member out of the view is presumed cut off rather than gone for good. */
    static final Duration PRESUMED_GONE_AFTER = Duration.ofMinutes(10);
    /** The most departed members remembered (members that never come back, under ever new names, must not pile up). */
    private static final int MAX_DEPARTED = 1000;

    /** A removal and the members that were in the view when it was made. */
    private record Entry(Removed removal, Instant removedAt, Instant keepUntil, Set<String> present) {

        boolean owedTo(String member, Instant departedAt, Duration window) {
            return !present.contains(member) || (departedAt != null && !removedAt.isBefore(departedAt.minus(window)));
        }
    }

    private final Duration deliveryWindow;
    private final int capacity;
    private final Duration presumedGoneAfter;
    /** Removals within the delivery window, oldest first; forgotten after it unless a member left meanwhile. */
    private final LinkedHashMap<String, Entry> recent = new LinkedHashMap<>();
    /** Removals that a member out of the view may have missed, oldest first; forgotten at their {@code keepUntil}. */
    private final LinkedHashMap<String, Entry> kept = new LinkedHashMap<>();
    /** Members that left the view and have not come back, with when this node noticed. */
    private final LinkedHashMap<String, Instant> departed = new LinkedHashMap<>();
    /** Members that appeared in the view within the delivery window, with when. */
    private final Map<String, Instant> appeared = new HashMap<>();
    private Set<String> members;
    /** Until when this ledger is too young to know who left before it began. */
    private final Instant youngUntil;

    /**
     * @param members        the members now (this node's view when the transport starts)
     * @param deliveryWindow how long a removal may still be on its way to a member when the view drops it: as long as a
     *                       tombstone lasts ({@link BackupStore#tombstoneLifetime})
     * @param startedAt      now
     */
    RemovalLedger(Set<String> members, Duration deliveryWindow, Instant startedAt) {
        this(members, deliveryWindow, MAX_REMOVALS, PRESUMED_GONE_AFTER, startedAt);
    }

    /**
     * @param deliveryWindow    how long a removal may still be on its way to a member when the view drops it
     * @param capacity          the most removals kept
     * @param presumedGoneAfter how long a member out of the view is owed the removals made meanwhile, and how long after
     *                          {@code startedAt} the ledger keeps every removal
     * @param startedAt         when the ledger began ({@link Instant#MIN}: long ago, as tests of an older ledger pass)
     */
    RemovalLedger(Set<String> members, Duration deliveryWindow, int capacity, Duration presumedGoneAfter,
            Instant startedAt) {
        this.members = Set.copyOf(members);
        this.deliveryWindow = deliveryWindow;
        this.capacity = capacity;
        this.presumedGoneAfter = presumedGoneAfter;
        this.youngUntil = startedAt.equals(Instant.MIN) ? Instant.MIN : startedAt.plus(presumedGoneAfter);
    }

    /**
     * What {@link #remember} did: how many removals kept for members out of the view it forgot to make room (0 unless
     * {@link #MAX_REMOVALS} are kept; removals everyone was there for go first, uncounted), the members to tell of
     * this removal at once, beside the holders the remover tells anyway, and whether it is kept for members out of the
     * view (then the remover gives it to the members present, to {@link #keep} for them).
     */
    record Recorded(int forgotten, Set<String> tellNow, boolean keptForAbsent) {
    }

    /**
     * Records the removal (its session id and the versions it covers) made while {@code present} were the members.
     * Members to tell at once: those this ledger counts in the view that {@code present} lacks (they left and came
     * back, or came back, without a rebalance pass in between that saw it, or the view changed while the removal was
     * made; each is also counted as departed now, so that its next appearance tells it again should this fail), and
     * those that
     * appeared less than the delivery window ago (the pass that places copies on them again may still be running, so
     * no holder list names them yet).
     */
    synchronized Recorded remember(Removed removal, Instant now, Instant keepUntil, Set<String> present) {
        forgetPastWindow(now);
        departed.values().removeIf(leftAt -> leftAt.plus(presumedGoneAfter).isBefore(now));
        appeared.values().removeIf(at -> at.plus(deliveryWindow).isBefore(now));
        Set<String> tellNow = new HashSet<>();
        for (String member : members) {
            if (!present.contains(member)) {
                tellNow.add(member);
                departed.putIfAbsent(member, now);
            }
        }
        if (!tellNow.isEmpty()) {
            Set<String> seen = new HashSet<>(members);
            seen.removeAll(tellNow);
            members = Set.copyOf(seen);
        }
        appeared.keySet().stream().filter(members::contains).forEach(tellNow::add);
        Entry entry = new Entry(removal, now, keepUntil, present.equals(members) ? members : Set.copyOf(present));
        recent.remove(removal.sessionId());
        kept.remove(removal.sessionId());
        boolean missing = now.isBefore(youngUntil) || !departed.isEmpty() || !present.containsAll(members);
        (missing ? kept : recent).put(removal.sessionId(), entry);
        return new Recorded(makeRoom(), Set.copyOf(tellNow), missing);
    }

    /**
     * Keeps a removal another member made while members were out of its view (it {@link Recorded#keptForAbsent}), for
     * every member {@code present} (this node's view now) lacks, until {@code keepUntil}, whoever this ledger counts
     * departed: this node may not have seen those members leave (it joined later), and it keeps the removal in case
     * the remover is gone when they come back. {@code present} may be older than the members this ledger was last
     * told of ({@link #membersAre}): a member that appeared in between is not owed it at its next appearance but now.
     */
    synchronized Kept keep(Removed removal, Instant now, Instant keepUntil, Set<String> present) {
        forgetPastWindow(now);
        recent.remove(removal.sessionId());
        kept.remove(removal.sessionId());
        kept.put(removal.sessionId(), new Entry(removal, now, keepUntil, Set.copyOf(present)));
        Set<String> tellNow = new HashSet<>(members);
        tellNow.removeAll(present);
        return new Kept(makeRoom(), Set.copyOf(tellNow));
    }

    /**
     * What {@link #keep} did: how many removals kept for members out of the view it forgot to make room (see {@link
     * #remember}), and the members to tell of the removal at once: in the view this ledger was last told of, though
     * not in the one the removal was kept for (they appeared meanwhile, and the pass that tells members that appear
     * has run).
     */
    record Kept(int forgotten, Set<String> tellNow) {
    }

    /** Forgets the oldest removals beyond the capacity: those everyone was there for first; counts the others. */
    private int makeRoom() {
        int forgotten = 0;
        while (recent.size() + kept.size() > capacity) {
            boolean owed = recent.isEmpty();
            Iterator<Entry> oldest = (owed ? kept : recent).values().iterator();
            oldest.next();
            oldest.remove();
            if (owed) {
                forgotten++;
            }
        }
        return forgotten;
    }

    /**
     * The view's members are now {@code now}: notes who left, and returns what each member that appeared (came back,
     * or is new) is owed, oldest first; members owed nothing are not listed.
     */
    synchronized Map<String, List<Removed>> membersAre(Set<String> now, Instant at) {
        forgetOld(at);
        Set<String> left = new HashSet<>(members);
        left.removeAll(now);
        if (!left.isEmpty()) {
            left.forEach(member -> {
                departed.remove(member);
                departed.put(member, at);
            });
            while (departed.size() > MAX_DEPARTED) {
                departed.remove(departed.keySet().iterator().next());
            }
            kept.putAll(recent); // each may have been on its way to a member that left: keep it for them
            recent.clear();
        }
        Map<String, List<Removed>> owed = new HashMap<>();
        for (String member : now) {
            if (members.contains(member)) {
                continue;
            }
            Instant departedAt = departed.remove(member);
            appeared.put(member, at);
            List<Removed> removals = new ArrayList<>();
            for (Entry entry : kept.values()) {
                if (entry.owedTo(member, departedAt, deliveryWindow)) {
                    removals.add(entry.removal());
                }
            }
            for (Entry entry : recent.values()) {
                if (entry.owedTo(member, departedAt, deliveryWindow)) {
                    removals.add(entry.removal());
                }
            }
            if (!removals.isEmpty()) {
                owed.put(member, removals);
            }
        }
        appeared.keySet().retainAll(now);
        members = Set.copyOf(now);
        return owed;
    }

    /** Forgets removals that no member can need any more; the backup sweeper calls it. */
    synchronized void forgetOld(Instant now) {
        forgetPastWindow(now);
        kept.values().removeIf(entry -> entry.keepUntil().isBefore(now));
    }

    /** Forgets the removals everyone was there for once the window is past them: at most a look at the oldest, mostly. */
    private void forgetPastWindow(Instant now) {
        Instant windowStart = now.minus(deliveryWindow);
        Iterator<Entry> early = recent.values().iterator();
        while (early.hasNext()) {
            if (!early.next().removedAt().isBefore(windowStart)) {
                break; // oldest first: the rest are younger
            }
            early.remove();
        }
    }

    /** How many removals are kept now. */
    synchronized int size() {
        return recent.size() + kept.size();
    }
}
