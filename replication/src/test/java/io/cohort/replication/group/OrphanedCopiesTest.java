package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.placement.ReplicaPlacement;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When an owner dies, one surviving holder (the custodian) restores its sessions' copies before
 * anyone takes them over: {@code write-quota + 1} copies (the custodian's stands for the owner's),
 * on the members a takeover by the custodian would use, at the session's version.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OrphanedCopiesTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void quotaTwoOfFourSurvivesTheOwnerAndThenAHolderDyingBeforeAnyRequest() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = new ArrayList<>(group.startMembers(4));
            TestMember owner = members.remove(0);
            List<ShopVisit> visits = visits(owner, 20);
            for (ShopVisit visit : visits) {
                assertThat(holders(members, visit)).as("placed before").hasSize(2);
            }

            owner.crash();
            TestGroup.awaitMembers(members);
            Await.until("every orphaned session has 3 copies on its likely holders",
                    () -> visits.stream().allMatch(v -> holders(members, v).equals(likelyHolders(members, v, 2))
                            && holders(members, v).size() == 3));

            ShopVisit probe = visits.get(0);
            TestMember custodian = best(members, probe);
            members.remove(custodian);
            custodian.crash();
            TestGroup.awaitMembers(members);
            Await.until("every orphaned session is on both survivors",
                    () -> visits.stream().allMatch(v -> holders(members, v).size() == 2));

            TestMember taker = members.get(0);
            StoredSession loaded = taker.store().load(probe.id()).orElseThrow();
            assertThat(loaded.version()).isEqualTo(probe.version());
            assertThat(values(loaded)).isEqualTo(ShopVisit.expectedAfterBrowsing());
        }
    }

    @Test
    void quotaOneOfThreeGetsASecondCopySoTheSessionSurvivesItsHolderDyingToo() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = new ArrayList<>(group.startMembers(3));
            TestMember owner = members.remove(0);
            List<ShopVisit> visits = visits(owner, 10);

            owner.crash();
            TestGroup.awaitMembers(members);
            Await.until("every orphaned session is held by both survivors",
                    () -> visits.stream().allMatch(v -> holders(members, v).size() == 2));

            TestMember holder = members.get(0);
            members.remove(holder);
            holder.crash();
            TestGroup.awaitMembers(members);
            TestMember last = members.get(0);
            for (ShopVisit visit : visits) {
                StoredSession loaded = last.store().load(visit.id()).orElseThrow();
                assertThat(loaded.version()).as("version of %s", visit.id()).isEqualTo(visit.version());
                assertThat(values(loaded)).isEqualTo(ShopVisit.expectedAfterBrowsing());
            }
        }
    }

    @Test
    void aTakeoverAfterCustodianshipLeavesTheExactPlacement() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = new ArrayList<>(group.startMembers(5));
            TestMember owner = members.remove(0);
            List<ShopVisit> visits = visits(owner, 10);

            owner.crash();
            TestGroup.awaitMembers(members);
            Await.until("every orphaned session has 3 copies",
                    () -> visits.stream().allMatch(v -> holders(members, v).equals(likelyHolders(members, v, 2))));

            for (ShopVisit visit : visits) {
                TestMember taker = members.get(Math.floorMod(visit.id().hashCode(), members.size()));
                StoredSession loaded = taker.store().load(visit.id()).orElseThrow();
                assertThat(loaded.version()).isEqualTo(visit.version());
                List<TestMember> others = members.stream().filter(m -> m != taker).toList();
                Set<String> placed = placed(taker, visit, 2);
                Await.until("copies of " + visit.id() + " exactly on " + placed,
                        () -> holders(others, visit).equals(placed));
            }
        }
    }

    @Test
    void onlyTheCustodianNamesAnOrphanToEndAndOnlyOnceItHasExpiredBeyondDoubt() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = new ArrayList<>(group.startMembers(4));
            TestMember owner = members.remove(0);
            List<ShopVisit> visits = visits(owner, 10);

            owner.crash();
            TestGroup.awaitMembers(members);
            Await.until("every orphaned session has 3 copies",
                    () -> visits.stream().allMatch(v -> holders(members, v).size() == 3));

            // 30-minute sessions: expired beyond doubt after 37.5 minutes without an access
            java.time.Instant muchLater = java.time.Instant.now().plus(Duration.ofMinutes(38));
            for (ShopVisit visit : visits) {
                List<String> naming = members.stream()
                        .filter(m -> m.store().expiredOrphans(muchLater).contains(visit.id())).map(TestMember::name).toList();
                assertThat(naming).as("members naming %s", visit.id()).containsExactly(best(members, visit).name());
            }
            java.time.Instant stillInTime = java.time.Instant.now().plus(Duration.ofMinutes(37));
            assertThat(members).allSatisfy(m -> assertThat(m.store().expiredOrphans(stillInTime)).isEmpty());

            // a sweep that loads an orphan to end it takes nothing over while it has not expired
            ShopVisit probe = visits.get(0);
            assertThat(best(members, probe).store().loadToEnd(probe.id())).isEmpty();
            assertThat(holders(members, probe)).as("still in custody, all copies in place").hasSize(3);
        }
    }

    private static List<ShopVisit> visits(TestMember owner, int count) {
        List<ShopVisit> visits = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            visits.add(new ShopVisit(owner).browseAndFillCart());
        }
        return visits;
    }

    /** Members holding a copy of exactly the visit's version (a copy of another version counts as wrong). */
    private static Set<String> holders(List<TestMember> members, ShopVisit visit) {
        Set<String> holders = new TreeSet<>();
        for (TestMember member : members) {
            if (member.backup(visit.id()).isPresent()) {
                holders.add(member.backupVersion(visit.id()) == visit.version() ? member.name() : member.name() + "@stale");
            }
        }
        return holders;
    }

    private static Set<String> likelyHolders(List<TestMember> members, ShopVisit visit, int quota) {
        List<Member> view = members.get(0).service().clusterView().members();
        Set<String> names = new TreeSet<>();
        new ReplicaPlacement(quota, true).likelyHolders(visit.id(), view).forEach(m -> names.add(m.name()));
        return names;
    }

    private static Set<String> placed(TestMember owner, ShopVisit visit, int quota) {
        List<Member> view = owner.service().clusterView().members();
        Set<String> names = new TreeSet<>();
        new ReplicaPlacement(quota, true).holders(visit.id(), owner.service().clusterView().self(), view)
                .forEach(m -> names.add(m.name()));
        return names;
    }

    private static Map<String, Object> values(StoredSession session) throws Exception {
        Map<String, Object> values = new java.util.HashMap<>();
        for (var attribute : session.attributes().entrySet()) {
            values.put(attribute.getKey(), TestMember.CODEC.deserialize(attribute.getKey(), attribute.getValue()));
        }
        return values;
    }

    /** The best-ranked member for the session: the custodian when the placement was exact. */
    private static TestMember best(List<TestMember> members, ShopVisit visit) {
        List<Member> view = members.get(0).service().clusterView().members();
        String name = new ReplicaPlacement(1, true).likelyHolders(visit.id(), view).get(0).name();
        return members.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }
}
