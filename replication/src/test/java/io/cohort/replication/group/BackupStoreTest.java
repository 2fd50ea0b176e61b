package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.SessionChange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class BackupStoreTest {

    private static final Instant T = Instant.parse("2026-11-21T10:00:00Z");
    private final BackupStore store = new BackupStore();

    private static SessionChange full(long version, String value) {
        return new SessionChange("s", version, ChangeKind.FULL, T, T, 60_000, Map.of("a", value.getBytes()), Set.of());
    }

    private static SessionChange delta(long version, String value) {
        return new SessionChange("s", version, ChangeKind.DELTA, T, T.plusSeconds(version), 60_000,
                Map.of("b", value.getBytes()), Set.of("a"));
    }

    @Test
    void deltasApplyInVersionOrderOnly() {
        assertThat(store.apply("shop", "a", full(1, "x"))).isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("shop", "a", delta(2, "y"))).isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("shop", "a", delta(2, "y"))).isEqualTo(BackupStore.Outcome.STALE);
        assertThat(store.apply("shop", "a", delta(4, "z"))).isEqualTo(BackupStore.Outcome.GAP);

        var copy = store.get("shop", "s").orElseThrow();
        assertThat(copy.version()).isEqualTo(2);
        assertThat(copy.attributes()).containsOnlyKeys("b");
    }

    @Test
    void aChangeTheFormerOwnerSentBeforeItLearntOfATakeoverDoesNotShadowTheNewOwnersChange() {
        store.apply("shop", "a", full(1, "x"));
        store.takenOver("shop", "s", "b", 1, List.of("x"), "x"); // b took the session over from a; x keeps its copy

        // a's change, sent before a heard of it, arrives after the notice: b's change of that version must apply
        assertThat(store.apply("shop", "a", delta(2, "from-a"))).isEqualTo(BackupStore.Outcome.STALE);
        assertThat(store.apply("shop", "b", delta(2, "from-b"))).isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("shop", "a", full(3, "from-a"))).as("a's full copy too").isEqualTo(BackupStore.Outcome.STALE);
        assertThat(store.apply("shop", "b", delta(3, "from-b again"))).isEqualTo(BackupStore.Outcome.APPLIED);

        assertThat(new String(store.get("shop", "s").orElseThrow().attributes().get("b"))).isEqualTo("from-b again");
    }

    @Test
    void aMemberThatTookTheSessionBackIsItsOwnerAgain() {
        store.apply("shop", "a", full(1, "x"));
        store.takenOver("shop", "s", "b", 1, List.of("x"), "x");
        store.takenOver("shop", "s", "a", 1, List.of("x"), "x"); // and a took it back from b

        assertThat(store.apply("shop", "a", delta(2, "from-a"))).isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("shop", "b", delta(3, "from-b"))).as("b's, now the former owner's")
                .isEqualTo(BackupStore.Outcome.STALE);
    }

    @Test
    void aDeltaWithoutACopyIsAGapAndAnOlderFullCopyNeverWins() {
        assertThat(store.apply("shop", "a", delta(3, "y"))).isEqualTo(BackupStore.Outcome.GAP);
        assertThat(store.apply("shop", "a", full(5, "new"))).isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("shop", "b", full(4, "old"))).isEqualTo(BackupStore.Outcome.STALE);
        assertThat(new String(store.get("shop", "s").orElseThrow().attributes().get("a"))).isEqualTo("new");
    }

    @Test
    void aLateRemovalDropsACopyUpToItsVersionAndTombstonesItButLeavesANewerOne() {
        store.apply("shop", "a", full(3, "x"));
        assertThat(store.removeUnlessNewer("shop", "s", 3)).map(BackupStore.Copy::owner).contains("a");
        assertThat(store.contains("shop", "s")).isFalse();
        assertThat(store.apply("shop", "c", full(3, "custodian's"))).as("a copy still on its way")
                .isEqualTo(BackupStore.Outcome.REMOVED);

        store.apply("other", "d", full(5, "went on at d"));
        assertThat(store.removeUnlessNewer("other", "s", 4)).isEmpty();
        assertThat(store.get("other", "s").orElseThrow().version()).isEqualTo(5);
        assertThat(store.removed("other", "s")).as("no tombstone against the newer owner's changes").isFalse();

        assertThat(store.removeUnlessNewer("third", "s", 1)).isEmpty();
        assertThat(store.removed("third", "s", 1)).as("tombstoned up to the removed version without a copy too").isTrue();
        assertThat(store.removed("third", "s")).as("but not for every version").isFalse();
        assertThat(store.apply("third", "c", full(2, "went on at c"))).as("a newer owner's copy")
                .isEqualTo(BackupStore.Outcome.APPLIED);
        assertThat(store.apply("third", "d", full(1, "the removed state"))).isEqualTo(BackupStore.Outcome.REMOVED);
    }

    @Test
    void aLateRemovalNeverWeakensAFullTombstone() {
        store.apply("shop", "a", full(3, "x"));
        store.remove("shop", "s");
        store.removeUnlessNewer("shop", "s", 1);

        assertThat(store.removed("shop", "s")).isTrue();
        assertThat(store.apply("shop", "c", full(9, "anything"))).isEqualTo(BackupStore.Outcome.REMOVED);
    }

    @Test
    void aChangeRacingWithTheRemovalNeverResurrectsTheCopy() throws Exception {
        // multicast delivers updates (NAKACK2) and removals (UNICAST3) on different threads at the same time; the
        // window is a few instructions wide, so the race is run over many sessions, in several rounds
        int sessions = 20_000;
        for (int round = 0; round < 8; round++) {
            String app = "shop" + round;
            java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(2);
            Thread updates = new Thread(() -> {
                await(start);
                for (int i = 0; i < sessions; i++) {
                    String id = "s" + i;
                    store.apply(app, "a", new SessionChange(id, 1, ChangeKind.FULL, T, T, 60_000, Map.of(), Set.of()));
                    store.apply(app, "a", new SessionChange(id, 2, ChangeKind.FULL, T, T, 60_000, Map.of(), Set.of()));
                }
            });
            updates.start();
            await(start);
            for (int i = 0; i < sessions; i++) {
                store.remove(app, "s" + i);
            }
            updates.join();

            for (int i = 0; i < sessions; i++) {
                assertThat(store.contains(app, "s" + i)).as("copy of removed session s" + i + " in round " + round).isFalse();
            }
        }
    }

    private static void await(java.util.concurrent.CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRemovedSessionIsNotResurrectedByALateChange() {
        store.apply("shop", "a", full(1, "x"));
        store.remove("shop", "s");

        assertThat(store.apply("shop", "a", full(2, "late"))).isEqualTo(BackupStore.Outcome.REMOVED);
        assertThat(store.get("shop", "s")).isEmpty();
    }

    @Test
    void copiesAreKeptPerApplication() {
        store.apply("shop", "a", full(1, "x"));

        assertThat(store.get("blog", "s")).isEmpty();
        assertThat(store.count("shop")).isEqualTo(1);
        assertThat(store.count("blog")).isZero();
    }

    @Test
    void orphansAreSweptOnlyLongAfterTheirInactiveInterval() {
        store.apply("shop", "a", full(1, "x")); // last accessed T, max inactive 60 s

        assertThat(store.sweep(T.plus(Duration.ofSeconds(90)))).isZero();
        assertThat(store.sweep(T.plus(Duration.ofSeconds(121)))).isEqualTo(1);
        assertThat(store.get("shop", "s")).isEmpty();
    }

    @Test
    void aTakeoverKeepsOnlyCopiesOfThePlacedHoldersAtTheTakenVersion() {
        store.apply("shop", "old-owner", full(3, "x"));
        store.takenOver("shop", "s", "new-owner", 3, List.of("me"), "me");
        assertThat(store.get("shop", "s")).isPresent();

        store.takenOver("shop", "s", "third", 4, List.of("me"), "me");
        assertThat(store.get("shop", "s")).as("another version: dropped").isEmpty();

        store.apply("shop", "old-owner", full(3, "x"));
        store.takenOver("shop", "s", "new-owner", 3, List.of("someone-else"), "me");
        assertThat(store.get("shop", "s")).as("not placed here: dropped").isEmpty();
    }

    @Test
    void aReleaseDropsTheCopyUnlessItIsNewer() {
        store.apply("shop", "a", full(5, "x"));
        store.release("shop", "s", 4, "a", member -> true);
        assertThat(store.get("shop", "s")).isPresent();
        store.release("shop", "s", 5, "a", member -> true);
        assertThat(store.get("shop", "s")).isEmpty();
    }

    @Test
    void onlyTheCopysOwnerOrOnceItHasLeftItsCustodianReleasesIt() {
        store.apply("shop", "b", full(5, "x")); // b took the session over and kept this copy

        store.release("shop", "s", 5, "a", member -> true); // a, its former owner, placed it elsewhere before that
        assertThat(store.get("shop", "s")).as("a member that is not the owner").isPresent();

        store.release("shop", "s", 5, "c", member -> !member.equals("b")); // b has left; c is the custodian
        assertThat(store.get("shop", "s")).as("the custodian of a departed owner's copy").isEmpty();
    }

    @Test
    void aTouchRefreshesTheLastAccessOfTheCurrentVersion() {
        store.apply("shop", "a", full(2, "x"));
        store.touch("shop", "s", 2, T.plusSeconds(30));
        store.touch("shop", "s", 1, T.plusSeconds(90));
        assertThat(store.get("shop", "s").orElseThrow().lastAccessed()).isEqualTo(T.plusSeconds(30));
    }
}
