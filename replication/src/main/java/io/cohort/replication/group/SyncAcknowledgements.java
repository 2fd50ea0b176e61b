package io.cohort.replication.group;

import io.cohort.replication.engine.ChangeNotAppliedException;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

/**
 * Changes waiting for their holders to report that they applied them. Each waiting change has a
 * correlation number carried by its messages; it is over when every holder acknowledged it, missed it, left the
 * group or is suspected of having died (see {@link SuspicionWatch}): it then succeeds, or fails if a holder missed it.
 * A miss does not cut short the wait for the other holders, so when a change fails, every holder that could apply it
 * has. It is forgotten once its future completes in any way, cancellation included (the waiter gave up). Thread-safe.
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

    /** A change's holders still owing an answer, the first holder that missed it (if any), and its future. */
    private record Waiting(Set<String> holders, AtomicReference<String> firstMissed, CompletableFuture<Void> done) {

        /** Completes the future once no holder owes an answer: failed if one missed the change. */
        void endIfAnswered(long correlation) {
            if (!holders.isEmpty()) {
                return;
            }
            String missed = firstMissed.get();
            if (missed == null) {
                done.complete(null);
            } else {
                done.completeExceptionally(new ChangeNotAppliedException(missed + " missed change " + correlation));
            }
        }
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
        Waiting w = new Waiting(remaining, new AtomicReference<>(), done);
        waiting.put(correlation, w);
        done.whenComplete((ok, error) -> waiting.remove(correlation));
        // registered before the suspects are dropped: a suspicion in between is not missed
        if (remaining.removeIf(suspected)) {
            w.endIfAnswered(correlation);
        }
        return new Registration(correlation, done);
    }

    record Registration(long correlation, CompletableFuture<Void> done) {
    }

    /**
     * {@code holder} will not apply the change: its send failed, the change was abandoned, or the owner no longer has
     * the session to send in full. Once the other holders have answered too, the change fails with
     * {@link ChangeNotAppliedException} (naming the first holder that missed it) and is forgotten.
     */
    void missed(long correlation, String holder) {
        Waiting w = waiting.get(correlation);
        if (w != null && w.holders().contains(holder)) {
            w.firstMissed().compareAndSet(null, holder);
            if (w.holders().remove(holder)) {
                w.endIfAnswered(correlation);
            }
        }
    }

    /** How many changes still wait for acknowledgements. */
    int pending() {
        return waiting.size();
    }

    void acknowledged(long correlation, String holder) {
        Waiting w = waiting.get(correlation);
        if (w != null && w.holders().remove(holder)) {
            w.endIfAnswered(correlation);
        }
    }

    /** The member with this name is suspected: acknowledgements it owes are waived. */
    void suspected(String member) {
        waiting.forEach((correlation, w) -> {
            if (w.holders().remove(member)) {
                w.endIfAnswered(correlation);
            }
        });
    }

    /** Members still in the group; acknowledgements owed by anyone else are waived. */
    void membersAre(Set<String> present) {
        waiting.forEach((correlation, w) -> {
            w.holders().retainAll(present);
            w.endIfAnswered(correlation);
        });
    }
}
