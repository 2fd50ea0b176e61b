package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cohort.replication.engine.ChangeNotAppliedException;
import io.cohort.replication.engine.ReplicationMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A change waiting for acknowledgements succeeds, fails when a holder missed it, and is forgotten either way. */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class SyncAcknowledgementsTest {

    private final SyncAcknowledgements acks = new SyncAcknowledgements();

    @Test
    void everyHolderAcknowledgingCompletesTheChange() throws Exception {
        SyncAcknowledgements.Registration change = acks.register(List.of("n2", "n3"));
        acks.acknowledged(change.correlation(), "n2");
        assertThat(change.done()).isNotDone();

        acks.acknowledged(change.correlation(), "n3");

        assertThat(change.done().get()).isNull();
        assertThat(acks.pending()).isZero();
    }

    @Test
    void aHolderThatMissedTheChangeFailsItAndItIsForgotten() {
        SyncAcknowledgements.Registration change = acks.register(List.of("n2", "n3"));
        acks.acknowledged(change.correlation(), "n2");
        acks.missed(change.correlation(), "n9");
        assertThat(change.done()).as("a member that is not a holder cannot fail it").isNotDone();

        acks.missed(change.correlation(), "n3");

        assertThatThrownBy(() -> change.done().get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ChangeNotAppliedException.class);
        assertThat(acks.pending()).isZero();
    }

    @Test
    void aMissDoesNotCutShortTheWaitForTheOtherHolders() {
        SyncAcknowledgements.Registration change = acks.register(List.of("n2", "n3"));
        acks.missed(change.correlation(), "n2");
        assertThat(change.done()).as("n3 still owes its answer").isNotDone();

        acks.acknowledged(change.correlation(), "n3");

        assertThatThrownBy(() -> change.done().get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(ChangeNotAppliedException.class).hasMessageContaining("n2 missed change");
        assertThat(acks.pending()).isZero();
    }

    @Test
    void aChangeNobodyWaitsForAnyMoreIsForgotten() {
        SyncAcknowledgements.Registration change = acks.register(List.of("n2"));
        assertThat(acks.pending()).isOne();

        change.done().cancel(false); // what synchronous delivery does when it gives up waiting

        assertThat(acks.pending()).isZero();
    }

    @Test
    void aHolderLeavingTheGroupWaivesItsAcknowledgement() throws Exception {
        SyncAcknowledgements.Registration change = acks.register(List.of("n2", "n3"));
        acks.acknowledged(change.correlation(), "n2");

        acks.membersAre(Set.of("n1", "n2"));

        assertThat(change.done().get()).isNull();
        assertThat(acks.pending()).isZero();
    }

    @Test
    void aHolderThatLeavesOrIsSuspectedWaivesOnlyItsOwnAcknowledgement() throws Exception {
        Set<String> suspected = new java.util.HashSet<>();
        SyncAcknowledgements watched = new SyncAcknowledgements(suspected::contains);
        SyncAcknowledgements.Registration change = watched.register(List.of("n2", "n3", "n4"));

        watched.membersAre(Set.of("n1", "n2", "n3"));
        suspected.add("n3");
        watched.suspected("n3");
        assertThat(change.done()).as("n2 has not acknowledged yet").isNotDone();

        watched.acknowledged(change.correlation(), "n2");

        assertThat(change.done().get()).isNull();
    }

    @Test
    void aSuspectedHolderIsNotWaitedForNorAfterwardsRegistered() throws Exception {
        Set<String> suspected = new java.util.HashSet<>();
        SyncAcknowledgements watched = new SyncAcknowledgements(suspected::contains);
        SyncAcknowledgements.Registration change = watched.register(List.of("n2", "n3"));
        watched.acknowledged(change.correlation(), "n2");

        suspected.add("n3");
        watched.suspected("n3");

        assertThat(change.done().get()).isNull();
        assertThat(watched.register(List.of("n3")).done()).as("registered while n3 is suspected").isDone();
        assertThat(watched.register(List.of("n2", "n3")).done()).isNotDone();
    }

    @Test
    void aHolderSuspectedWhileItsChangeIsBeingRegisteredIsNotWaitedFor() {
        SyncAcknowledgements[] self = new SyncAcknowledgements[1];
        // the suspicion arrives while register() checks whether n3 is suspected, as another thread could deliver it
        self[0] = new SyncAcknowledgements(name -> {
            self[0].suspected(name);
            return false;
        });

        assertThat(self[0].register(List.of("n3")).done()).isDone();
        assertThat(self[0].pending()).isZero();
    }

    @Test
    void aFrameThatCouldNotBeSentIsReportedMissedByItsTargetOrForAMulticastByEveryone() {
        ReplicationMetrics metrics = new ReplicationMetrics(new SimpleMeterRegistry(), "shop");
        List<String> missed = new ArrayList<>();
        AtomicInteger abandoned = new AtomicInteger();
        GroupDispatch dispatch = new GroupDispatch(List.of(new GroupDispatch.Frame(null, new byte[10]),
                new GroupDispatch.Frame("n3", new byte[10]), new GroupDispatch.Frame("n4", new byte[10])), null, metrics, 1,
                null, target -> missed.add(String.valueOf(target)), () -> abandoned.incrementAndGet() > 0);

        dispatch.settle(frame -> "n4".equals(frame.target()));

        assertThat(missed).as("null: the multicast, to every target").containsExactly("null", "n3");
        assertThat(abandoned).as("only an abandoned dispatch").hasValue(0);
    }
}
