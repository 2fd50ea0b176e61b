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

    /**
     * A member holding a copy asks the likely holders among the others (and the owner) before taking the session
     * over: they must include every other holder of that copy's placement, with or without colocation. Without
     * colocation the placement skips members on hosts already used, past any fixed number of ranks.
     */
    @Test
    void likelyHoldersAmongTheOthersIncludeEveryOtherHolderOfAnyPlacementWithOrWithoutColocation() {
        List<Member> nine = List.of(member("o", "h1"), member("p1", "h1"), member("p2", "h1"), member("a", "h2"),
                member("y1", "h2"), member("y2", "h2"), member("z1", "h3"), member("z2", "h3"), member("z3", "h3"));
        for (boolean colocation : new boolean[] {true, false}) {
            ReplicaPlacement placement = new ReplicaPlacement(2, colocation);
            for (int i = 0; i < 500; i++) {
                String id = "s" + i;
                for (Member owner : nine) {
                    List<Member> holders = placement.holders(id, owner, nine);
                    for (Member self : holders) {
                        List<Member> others = nine.stream().filter(m -> !m.equals(self)).toList();
                        List<Member> asked = new ArrayList<>(placement.likelyHolders(id, others));
                        asked.add(owner);
                        assertThat(asked).as("colocation %s, session %s, owner %s, asked by %s", colocation, id,
                                owner.name(), self.name()).containsAll(holders.stream().filter(h -> !h.equals(self)).toList());
                    }
                }
            }
        }
    }
}
