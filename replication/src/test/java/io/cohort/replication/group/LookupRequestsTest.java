package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.session.StoredSession;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A lookup ends when every asked member answered, left or is suspected, and keeps the newest copy. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LookupRequestsTest {

    private static final Duration LONG = Duration.ofSeconds(20);

    private final Set<String> suspected = new HashSet<>();
    private final LookupRequests lookups = new LookupRequests(suspected::contains);

    @Test
    void theNewestCopyWinsOnceEveryAskedMemberAnswered() throws Exception {
        long correlation = lookups.open("s1", List.of("n2", "n3"));
        lookups.answered(correlation, "n2", Optional.of(copy(3)));
        lookups.answered(correlation, "n3", Optional.of(copy(4)));

        LookupRequests.Found found = lookups.await(correlation, LONG).orElseThrow();

        assertThat(found.copy().version()).isEqualTo(4);
        assertThat(found.holders()).containsExactly("n3");
    }

    @Test
    void aMemberSuspectedWhileTheLookupWaitsIsNoLongerWaitedFor() throws Exception {
        long correlation = lookups.open("s1", List.of("n2", "n3"));
        lookups.answered(correlation, "n2", Optional.of(copy(3)));
        CompletableFuture<Optional<LookupRequests.Found>> result = CompletableFuture.supplyAsync(() -> {
            try {
                return lookups.await(correlation, LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });

        suspected.add("n3");
        lookups.suspected("n3");

        assertThat(result.get(10, TimeUnit.SECONDS).orElseThrow().copy().version()).isEqualTo(3);
    }

    @Test
    void aMemberSuspectedBeforeTheLookupIsAskedButNotWaitedForAndItsAnswerStillCountsIfItComesFirst()
            throws Exception {
        suspected.add("n3");
        long correlation = lookups.open("s1", List.of("n2", "n3"));
        lookups.answered(correlation, "n3", Optional.of(copy(5)));
        lookups.answered(correlation, "n2", Optional.of(copy(3)));

        assertThat(lookups.await(correlation, LONG).orElseThrow().copy().version()).isEqualTo(5);
        assertThat(lookups.await(lookups.open("s1", List.of("n3")), LONG)).as("only suspected members asked").isEmpty();
    }

    @Test
    void aMemberSuspectedWhileTheLookupIsBeingOpenedIsNotWaitedFor() throws Exception {
        LookupRequests[] self = new LookupRequests[1];
        // the suspicion arrives while open() checks whether n3 is suspected, as another thread could deliver it
        self[0] = new LookupRequests(name -> {
            self[0].suspected(name);
            return false;
        });
        long correlation = self[0].open("s1", List.of("n3"));

        assertThat(CompletableFuture.supplyAsync(() -> {
            try {
                return self[0].await(correlation, LONG);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }).get(10, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void onlyTheAskedMembersAnswersWithACopyOfTheSessionLookedUpCount() throws Exception {
        long correlation = lookups.open("s1", List.of("n2"));

        assertThat(lookups.answered(correlation, "n9", Optional.of(copy(9)))).as("never asked").isFalse();
        Instant now = Instant.now();
        StoredSession another = new StoredSession("victim", 9, now, now, 60_000, Map.of("account", new byte[] {1}));
        assertThat(lookups.answered(correlation, "n2", Optional.of(another))).as("a copy of another session").isFalse();
        assertThat(lookups.answered(correlation, "n2", Optional.of(copy(3)))).isTrue();

        assertThat(lookups.await(correlation, LONG).orElseThrow().copy().version()).isEqualTo(3);
    }

    private static StoredSession copy(long version) {
        Instant now = Instant.now();
        return new StoredSession("s1", version, now, now, 60_000, Map.of("cart", new byte[] {1}));
    }
}
