package io.cohort.replication.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReplicaPlacementTest {

    private static Member member(String name, String host) {
        return new Member(name, name, host, URI.create("http://" + host + ":8080"), URI.create("http://" + host + ":9090"));
    }

    private static final List<Member> FIVE = List.of(member("a", "h1"), member("b", "h2"), member("c", "h3"),
            member("d", "h4"), member("e", "h5"));

    @Test
    void placementIsDeterministicWhateverTheOrderOfMembers() {
        ReplicaPlacement placement = new ReplicaPlacement(2, true);
        List<Member> shuffled = new ArrayList<>(FIVE);
        Collections.shuffle(shuffled, new Random(3));
        for (int i = 0; i < 200; i++) {
            String id = UUID.randomUUID().toString();
            assertThat(placement.holders(id, FIVE.get(0), shuffled)).isEqualTo(placement.holders(id, FIVE.get(0), FIVE));
        }
    }

    @Test
    void holdersAreTheBestScoringOtherMembersBestFirst() {
        ReplicaPlacement placement = new ReplicaPlacement(3, true);
        for (int i = 0; i < 200; i++) {
            String id = "s" + i;
            List<Member> expected = FIVE.stream().filter(m -> !m.equals(FIVE.get(2)))
                    .sorted(Comparator.comparingLong((Member m) -> ReplicaPlacement.score(id, m.name())).reversed())
                    .limit(3).toList();
            assertThat(placement.holders(id, FIVE.get(2), FIVE)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void holdersAreQuotaMembersOtherThanTheOwner() {
        ReplicaPlacement placement = new ReplicaPlacement(2, true);
        for (int i = 0; i < 200; i++) {
            List<Member> holders = placement.holders("s" + i, FIVE.get(1), FIVE);
            assertThat(holders).hasSize(2).doesNotContain(FIVE.get(1)).doesNotHaveDuplicates();
        }
    }

    @Test
    void aQuotaBeyondTheClusterTakesEveryOtherMemberAndReportsTheDeficit() {
        ReplicaPlacement placement = new ReplicaPlacement(7, true);

        assertThat(placement.holders("s", FIVE.get(0), FIVE)).containsExactlyInAnyOrderElementsOf(FIVE.subList(1, 5));
        assertThat(placement.deficit(5)).isEqualTo(3);
        assertThat(placement.deficit(1)).isEqualTo(7);
        assertThat(new ReplicaPlacement(1, true).deficit(3)).isZero();
    }

    @Test
    void copiesSpreadEvenlyOverTheMembers() {
        ReplicaPlacement placement = new ReplicaPlacement(1, true);
        int[] counts = new int[5];
        for (int i = 0; i < 10_000; i++) {
            counts[FIVE.indexOf(placement.holders(UUID.randomUUID().toString(), FIVE.get(0), FIVE).get(0))]++;
        }
        assertThat(counts[0]).isZero();
        IntStream.range(1, 5).forEach(i -> assertThat(counts[i]).isBetween(2_200, 2_800));
    }

    @Test
    void aJoiningMemberTakesOnlyTheCopiesItNowScoresBestFor() {
        ReplicaPlacement placement = new ReplicaPlacement(1, true);
        List<Member> six = new ArrayList<>(FIVE);
        six.add(member("f", "h6"));
        int moved = 0;
        for (int i = 0; i < 5_000; i++) {
            String id = "session-" + i;
            Member before = placement.holders(id, FIVE.get(0), FIVE).get(0);
            Member after = placement.holders(id, FIVE.get(0), six).get(0);
            if (!before.equals(after)) {
                assertThat(after.name()).as("a copy only moves to the newcomer").isEqualTo("f");
                moved++;
            }
        }
        assertThat(moved).isBetween(800, 1_200); // about 1/5
    }

    @Test
    void withoutColocationOtherHostsComeFirstAndTheOwnersHostOnlyWhenNeeded() {
        List<Member> members = List.of(member("a", "h1"), member("b", "h1"), member("c", "h2"), member("d", "h2"),
                member("e", "h3"));
        ReplicaPlacement two = new ReplicaPlacement(2, false);
        ReplicaPlacement four = new ReplicaPlacement(4, false);
        for (int i = 0; i < 200; i++) {
            List<Member> holders = two.holders("s" + i, members.get(0), members);
            assertThat(holders).extracting(Member::host).doesNotContain("h1").doesNotHaveDuplicates();
            assertThat(four.holders("s" + i, members.get(0), members)).hasSize(4).contains(members.get(1));
        }
    }

    @Test
    void likelyHoldersIncludeThePlacementOfAnyOwnerAmongThem() {
        ReplicaPlacement placement = new ReplicaPlacement(2, true);
        for (int i = 0; i < 500; i++) {
            String id = "s" + i;
            List<Member> likely = placement.likelyHolders(id, FIVE);
            for (Member owner : likely) {
                assertThat(likely).containsAll(placement.holders(id, owner, FIVE));
            }
        }
    }
}
