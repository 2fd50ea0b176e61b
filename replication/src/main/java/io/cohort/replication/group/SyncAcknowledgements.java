package io.cohort.replication.group;

import io.cohort.replication.engine.ChangeNotAppliedException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

/**
 * Changes waiting for their holders to report that they applied them. Each waiting change has a
 * correlation number carried by its messages; it is done when every holder acknowledged it, left the
 * group or is suspected of having died (see {@link SuspicionWatch}), and fails when a holder missed it. It is forgotten once its future completes in any way,
 * cancellation included (the waiter gave up). Thread-safe.
 */
final class SyncAcknowledgements {

    private final AtomicLong nextCorrelation = new AtomicLong();
    private final ConcurrentMap<Long, Waiting> waiting = new ConcurrentHashMap<>();
    private final Predicate<String> suspected;

    /** Acknowledgements owed by every holder in the view. */
    SyncAcknowledgements() {
        this(name -> false);
    }

    /** @param suspected whether the member with this name is suspected now: its acknowledgement is not waited for */
    SyncAcknowledgements(Predicate<String> suspected) {
        this.suspected = suspected;
    }

    private record Waiting(Set<String> holders, CompletableFuture<Void> done) {
    }

    /** A correlation for a change sent to {@code holders} (member names), and the future of their acknowledgements. */
    Registration register(Collection<String> holders) {
        long correlation = nextCorrelation.incrementAndGet();
        CompletableFuture<Void> done = new CompletableFuture<>();
        if (holders.isEmpty()) {
            done.complete(null);
            return new Registration(correlation, done);
        }
        Set<String> remaining = ConcurrentHashMap.newKeySet();
        remaining.addAll(holders);
        waiting.put(correlation, new Waiting(remaining, done));
        done.whenComplete((ok, error) -> waiting.remove(correlation));
        // registered before the suspects are dropped: a suspicion in between is not missed
        if (remaining.removeIf(suspected) && remaining.isEmpty()) {
            done.complete(null);
        }
        return new Registration(correlation, done);
    }

    record Registration(long correlation, CompletableFuture<Void> done) {
    }

    /**
     * {@code holder} will not apply the change: its send failed, the change was abandoned, or the owner no longer has
     * the session to send in full. The change fails with {@link ChangeNotAppliedException} and is forgotten.
     */
    void missed(long correlation, String holder) {
        Waiting w = waiting.get(correlation);
        if (w != null && w.holders().contains(holder)) {
            w.done().completeExceptionally(new ChangeNotAppliedException(holder + " missed change " + correlation));
        }
    }

    /** How many changes still wait for acknowledgements. */
    int pending() {
        return waiting.size();
    }

    void acknowledged(long correlation, String holder) {
        Waiting w = waiting.get(correlation);
        if (w != null && w.holders().remove(holder) && w.holders().isEmpty()) {
            w.done().complete(null);
        }
    }

    /** The member with this name is suspected: acknowledgements it owes are waived. */
    void suspected(String member) {
        for (Waiting w : waiting.values()) {
            if (w.holders().remove(member) && w.holders().isEmpty()) {
                w.done().complete(null);
            }
        }
    }

    /** Members still in the group; acknowledgements owed by anyone else are waived. */
    void membersAre(Set<String> present) {
        for (Waiting w : waiting.values()) {
            w.holders().retainAll(present);
            if (w.holders().isEmpty()) {
                w.done().complete(null);
            }
        }
    }
}
