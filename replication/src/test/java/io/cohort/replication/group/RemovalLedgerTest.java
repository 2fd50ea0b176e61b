package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.replication.wire.ReplicationMessage.MissedRemovals.Removed;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class RemovalLedgerTest {

    private static final Instant T = Instant.parse("2026-11-27T10:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Instant NEVER = Instant.MAX;
    private static final Duration GONE = Duration.ofMinutes(10);
    /** When the ledgers of most cases began: long before, so that they know who left. */
    private static final Instant LONG_AGO = Instant.MIN;

    private static Removed removed(String id) {
        return new Removed(id, 3);
    }

    @Test
    void aMemberCutOffWhenTheSessionWasRemovedIsToldWhenItIsBackLongAfterTheWindow() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b", "c"), WINDOW, 100, GONE, LONG_AGO);
        assertThat(ledger.membersAre(Set.of("a", "c"), T)).isEmpty(); // b is cut off
        ledger.remember(removed("s1"), T.plusSeconds(10), NEVER, Set.of("a", "c"));

        Map<String, List<Removed>> owed = ledger.membersAre(Set.of("a", "b", "c"), T.plus(Duration.ofHours(3)));

        assertThat(owed).containsOnlyKeys("b");
        assertThat(owed.get("b")).containsExactly(removed("s1"));
    }

    @Test
    void aRemovalJustBeforeAMemberLeftIsOwedToItTooAsItMayHaveBeenLostWithTheConnection() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        ledger.remember(removed("long-ago"), T, NEVER, Set.of("a", "b"));
        ledger.remember(removed("just-before"), T.plusSeconds(100), NEVER, Set.of("a", "b"));
        ledger.membersAre(Set.of("a"), T.plusSeconds(110));

        Map<String, List<Removed>> owed = ledger.membersAre(Set.of("a", "b"), T.plusSeconds(500));

        assertThat(owed.get("b")).containsExactly(removed("just-before"));
    }

    @Test
    void aMemberThatJoinedOnTheOtherSideIsOwedWhatWasRemovedBeforeItWasSeen() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        ledger.membersAre(Set.of("a"), T);
        ledger.remember(removed("s1"), T.plusSeconds(5), NEVER, Set.of("a"));

        Map<String, List<Removed>> owed = ledger.membersAre(Set.of("a", "b", "d"), T.plusSeconds(600));

        assertThat(owed).containsOnlyKeys("b", "d");
    }

    @Test
    void aRemovalEveryoneWasThereForIsForgottenAfterTheWindow() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        ledger.remember(removed("s1"), T, NEVER, Set.of("a", "b"));
        assertThat(ledger.size()).isEqualTo(1);

        ledger.forgetOld(T.plus(WINDOW).plusSeconds(1));

        assertThat(ledger.size()).isZero();
        ledger.membersAre(Set.of("a"), T.plusSeconds(200));
        assertThat(ledger.membersAre(Set.of("a", "b"), T.plusSeconds(300))).isEmpty();
    }

    @Test
    void aRemovalMadeWhileAMemberWasAwayIsKeptUntilItsCopiesWouldHaveBeenSwept() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        ledger.membersAre(Set.of("a"), T);
        Instant swept = T.plus(Duration.ofHours(1));
        ledger.remember(removed("expires"), T.plusSeconds(1), swept, Set.of("a"));
        ledger.remember(removed("never-expires"), T.plusSeconds(2), NEVER, Set.of("a"));

        ledger.forgetOld(swept.minusSeconds(1));
        assertThat(ledger.size()).isEqualTo(2);
        ledger.forgetOld(swept.plusSeconds(1));

        assertThat(ledger.membersAre(Set.of("a", "b"), swept.plusSeconds(2)).get("b"))
                .containsExactly(removed("never-expires"));
    }

    @Test
    void pastItsCapacityTheOldestRemovalsAreForgottenAndCounted() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 2, GONE, LONG_AGO);
        ledger.membersAre(Set.of("a"), T);
        assertThat(ledger.remember(removed("s1"), T, NEVER, Set.of("a")).forgotten()).isZero();
        assertThat(ledger.remember(removed("s2"), T, NEVER, Set.of("a")).forgotten()).isZero();
        assertThat(ledger.remember(removed("s3"), T, NEVER, Set.of("a")).forgotten()).isEqualTo(1);

        assertThat(ledger.membersAre(Set.of("a", "b"), T.plusSeconds(1)).get("b"))
                .containsExactly(removed("s2"), removed("s3"));
    }

    @Test
    void aMemberAwayLongerThanItIsPresumedCutOffIsOwedOnlyWhatWasRemovedBefore() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        ledger.membersAre(Set.of("a"), T); // b crashed, or is cut off
        ledger.remember(removed("while-cut-off"), T.plusSeconds(60), NEVER, Set.of("a"));
        ledger.remember(removed("once-presumed-gone"), T.plus(GONE).plusSeconds(60), NEVER, Set.of("a"));

        ledger.forgetOld(T.plus(GONE).plus(WINDOW).plusSeconds(61));

        assertThat(ledger.size()).as("removals kept").isEqualTo(1);
        assertThat(ledger.membersAre(Set.of("a", "b"), T.plus(Duration.ofHours(2))).get("b"))
                .containsExactly(removed("while-cut-off"));
    }

    @Test
    void pastItsCapacityRemovalsEveryoneWasThereForGoFirstAndUncounted() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 2, GONE, LONG_AGO);
        for (int i = 0; i < 10; i++) {
            assertThat(ledger.remember(removed("s" + i), T.plusSeconds(i), NEVER, Set.of("a", "b")).forgotten())
                    .as("forgotten at s%d", i).isZero();
        }
        ledger.membersAre(Set.of("a"), T.plusSeconds(20)); // b left: the two recent ones may not have reached it
        ledger.remember(removed("while-away"), T.plusSeconds(21), NEVER, Set.of("a"));

        assertThat(ledger.size()).isEqualTo(2);
        assertThat(ledger.remember(removed("one-more"), T.plusSeconds(22), NEVER, Set.of("a")).forgotten())
                .as("a removal owed to b forgotten").isEqualTo(1);
    }

    @Test
    void aRemovalMadeWithoutAMemberThePassesStillCountIsSentToItAtOnceAndAgainWhenItAppears() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);

        RemovalLedger.Recorded recorded = ledger.remember(removed("s1"), T, NEVER, Set.of("a")); // b left and no pass saw it

        assertThat(recorded.tellNow()).containsExactly("b");
        assertThat(ledger.membersAre(Set.of("a", "b"), T.plusSeconds(30)).get("b")).containsExactly(removed("s1"));
    }

    @Test
    void aMemberThatAppearedWithinTheWindowIsToldOfARemovalAtOnce() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a"), WINDOW, 100, GONE, LONG_AGO);
        ledger.membersAre(Set.of("a", "b"), T); // b is back; the pass that places copies on it may still run

        assertThat(ledger.remember(removed("s1"), T.plusSeconds(10), NEVER, Set.of("a", "b")).tellNow()).containsExactly("b");
        assertThat(ledger.remember(removed("s2"), T.plus(WINDOW).plusSeconds(1), NEVER, Set.of("a", "b")).tellNow()).isEmpty();
    }

    @Test
    void onlyARemovalKeptForAMemberOutOfTheViewIsToBeShared() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "b"), WINDOW, 100, GONE, LONG_AGO);
        assertThat(ledger.remember(removed("everyone-there"), T, NEVER, Set.of("a", "b")).keptForAbsent()).isFalse();
        ledger.membersAre(Set.of("a"), T.plusSeconds(1)); // b is cut off

        assertThat(ledger.remember(removed("b-away"), T.plusSeconds(2), NEVER, Set.of("a")).keptForAbsent()).isTrue();
        ledger.membersAre(Set.of("a", "b"), T.plusSeconds(3));
        assertThat(ledger.remember(removed("b-back"), T.plusSeconds(4), NEVER, Set.of("a", "b")).keptForAbsent()).isFalse();
    }

    @Test
    void aSharedRemovalIsKeptForTheMembersThisViewLacksThoughThisLedgerNeverSawThemLeave() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "c"), WINDOW, 100, GONE, LONG_AGO); // c started after b was cut off
        Instant swept = T.plus(Duration.ofHours(1));
        ledger.keep(removed("s1"), T, swept, Set.of("a", "c"));
        ledger.forgetOld(T.plus(WINDOW).plusSeconds(1));
        assertThat(ledger.size()).as("kept past the window").isEqualTo(1);
        ledger.membersAre(Set.of("c"), T.plusSeconds(120)); // the remover crashed

        Map<String, List<Removed>> owed = ledger.membersAre(Set.of("b", "c"), T.plusSeconds(600));

        assertThat(owed).containsOnlyKeys("b");
        assertThat(owed.get("b")).containsExactly(removed("s1"));
        ledger.forgetOld(swept.plusSeconds(1));
        assertThat(ledger.size()).as("kept after its copies would have been swept").isZero();
    }

    @Test
    void aSharedRemovalThatArrivesAfterThePassThatSawAMemberComeBackIsForThatMemberAtOnce() {
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "c"), WINDOW, 100, GONE, LONG_AGO);
        Set<String> presentWhenTheShareArrived = Set.of("a", "c"); // b still out of the view the share was kept for
        assertThat(ledger.membersAre(Set.of("a", "b", "c"), T.plusSeconds(1))).as("the pass that saw b back").isEmpty();

        RemovalLedger.Kept kept = ledger.keep(removed("s1"), T.plusSeconds(1), NEVER, presentWhenTheShareArrived);

        assertThat(kept.tellNow()).as("members to tell now: no later pass would").containsExactly("b");
        assertThat(ledger.membersAre(Set.of("b", "c"), T.plusSeconds(2))).as("what a later pass tells b (a is gone)")
                .isEmpty();
    }

    @Test
    void aYoungLedgerKeepsAndSharesEveryRemovalForMembersItHasNotSeen() {
        // the node restarted while b was cut off: its first view has a and c only, and it cannot know b
        RemovalLedger ledger = new RemovalLedger(Set.of("a", "c"), WINDOW, 100, GONE, T);

        RemovalLedger.Recorded young = ledger.remember(removed("s1"), T.plusSeconds(30), NEVER, Set.of("a", "c"));
        ledger.forgetOld(T.plus(WINDOW).plusSeconds(60));
        Map<String, List<Removed>> owed = ledger.membersAre(Set.of("a", "b", "c"), T.plus(WINDOW).plusSeconds(62));

        assertThat(young.keptForAbsent()).as("shared with the members present").isTrue();
        assertThat(owed).as("what b is told when it is back, past the window").containsOnlyKeys("b");
        assertThat(owed.get("b")).containsExactly(removed("s1"));
        RemovalLedger.Recorded grown = ledger.remember(removed("s2"), T.plus(GONE).plusSeconds(1), NEVER,
                Set.of("a", "b", "c"));
        assertThat(grown.keptForAbsent()).as("once the ledger is older than members are presumed cut off").isFalse();
    }
}
