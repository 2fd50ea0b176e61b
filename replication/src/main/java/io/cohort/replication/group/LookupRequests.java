package io.cohort.replication.group;

import io.cohort.session.StoredSession;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Lookups waiting for answers: which members were asked, which copies came back. A lookup ends when
 * every asked member answered, left the group or is suspected of having died (see
 * {@link SuspicionWatch}), or when its wait is over; its result is the copy with the highest version
 * and the members that hold exactly that version. A suspected member's answer still counts if it
 * arrives before the lookup ends. Only the asked members' answers count, and only a copy of the session looked up
 * (correlation numbers are small and repeat across members and restarts). Thread-safe.
 */
final class LookupRequests {

    private final Predicate<String> suspected;

    /** The newest copy found and who holds it. */
    record Found(StoredSession copy, Set<String> holders) {
    }

    private final AtomicLong nextCorrelation = new AtomicLong();
    private final ConcurrentMap<Long, Pending> pending = new ConcurrentHashMap<>();

    private static final class Pending {
        final String sessionId;
        final Set<String> asked;
        final Set<String> unanswered = ConcurrentHashMap.newKeySet();
        final CompletableFuture<Void> answered = new CompletableFuture<>();
        StoredSession best;
        final Set<String> holdersOfBest = ConcurrentHashMap.newKeySet();

        Pending(String sessionId, Collection<String> asked) {
            this.sessionId = sessionId;
            this.asked = Set.copyOf(asked);
        }

        synchronized void offer(String from, StoredSession copy) {
            if (best == null || copy.version() > best.version()) {
                best = copy;
                holdersOfBest.clear();
            }
            if (copy.version() == best.version()) {
                holdersOfBest.add(from);
            }
        }

        synchronized Optional<Found> result() {
            return best == null ? Optional.empty() : Optional.of(new Found(best, Set.copyOf(holdersOfBest)));
        }
    }

    /** Lookups that wait for every asked member in the view. */
    LookupRequests() {
        this(name -> false);
    }

    /** @param suspected whether the member with this name is suspected now: its answer is not waited for */
    LookupRequests(Predicate<String> suspected) {
        this.suspected = suspected;
    }

    /** A new lookup of session {@code sessionId} at {@code asked} members; send each a Lookup with the returned correlation. */
    long open(String sessionId, Collection<String> asked) {
        long correlation = nextCorrelation.incrementAndGet();
        Pending p = new Pending(sessionId, asked);
        p.unanswered.addAll(asked);
        pending.put(correlation, p); // registered before the suspects are dropped: a suspicion in between is not missed
        p.unanswered.removeIf(suspected);
        if (p.unanswered.isEmpty()) {
            p.answered.complete(null);
        }
        return correlation;
    }

    /**
     * An answer from {@code from} arrived; false if it answers no lookup this node has open with that member about
     * that session (too late, not asked, or a copy of another session), and so was ignored.
     */
    boolean answered(long correlation, String from, Optional<StoredSession> copy) {
        Pending p = pending.get(correlation);
        if (p == null) {
            return true; // the lookup ended before this answer came: late, not wrong
        }
        if (!p.asked.contains(from) || copy.map(c -> !c.id().equals(p.sessionId)).orElse(false)) {
            return false;
        }
        copy.ifPresent(c -> p.offer(from, c));
        if (p.unanswered.remove(from) && p.unanswered.isEmpty()) {
            p.answered.complete(null);
        }
        return true;
    }

    void membersAre(Set<String> present) {
        for (Pending p : pending.values()) {
            p.unanswered.retainAll(present);
            if (p.unanswered.isEmpty()) {
                p.answered.complete(null);
            }
        }
    }

    /** The member with this name is suspected: lookups waiting for its answer stop waiting for it. */
    void suspected(String member) {
        for (Pending p : pending.values()) {
            if (p.unanswered.remove(member) && p.unanswered.isEmpty()) {
                p.answered.complete(null);
            }
        }
    }

    /** Waits until everyone answered or {@code wait} is over, closes the lookup and returns the best copy. */
    Optional<Found> await(long correlation, Duration wait) throws InterruptedException {
        Pending p = pending.get(correlation);
        if (p == null) {
            return Optional.empty();
        }
        try {
            if (!wait.isNegative() && !wait.isZero()) {
                p.answered.get(wait.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (TimeoutException | ExecutionException e) {
            // not everyone answered in time: take what came
        } finally {
            pending.remove(correlation);
        }
        return p.result();
    }
}
