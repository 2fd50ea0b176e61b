package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.placement.ReplicaPlacement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each session has exactly write-quota copies, on the placed members, before and after view changes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WriteQuotaTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void quotaTwoOfFiveHoldsAfterAHolderLeavesAndAMemberJoins() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = new ArrayList<>(group.startMembers(5));
            TestMember owner = members.get(0);
            List<ShopVisit> visits = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                visits.add(new ShopVisit(owner).request(Map.of("n", i)));
            }
            assertExactlyPlaced(owner, members, visits, 2);

            TestMember leaving = members.remove(3);
            leaving.crash();
            TestGroup.awaitMembers(members);
            Await.until("every session has 2 copies on its placed members again",
                    () -> placedExactly(owner, members, visits, 2));

            TestMember joining = group.start(5, "f");
            members.add(joining);
            TestGroup.awaitMembers(members);
            Await.until("every session has 2 copies on its placed members with f",
                    () -> placedExactly(owner, members, visits, 2));
            assertThat(visits.stream().filter(v -> joining.backup(v.id()).isPresent()))
                    .as("copies moved onto the member that joined").isNotEmpty();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestGroup.Transport.class)
    void quotaLargerThanTheClusterCopiesToAllAndReportsTheDeficit(TestGroup.Transport transport) throws Exception {
        try (TestGroup group = TestGroup.of(transport,
                TestGroup.settings(5, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("a", "x".repeat(1000)));
            double firstChange = members.get(0).bytesSent();

            assertThat(members.get(1).backupVersion(visit.id())).isEqualTo(visit.version());
            assertThat(members.get(2).backupVersion(visit.id())).isEqualTo(visit.version());
            assertThat(members.get(0).gauge(ReplicationMetrics.QUOTA_DEFICIT)).isEqualTo(3.0);
            // every other member gets the change: one multicast over UDP, one copy per member over TCP
            int copies = transport == TestGroup.Transport.MULTICAST ? 1 : 2;
            assertThat(firstChange).isBetween(1000.0 * copies, 1100.0 * copies);
        }
    }

    @Test
    void withoutColocationCopiesGoToOtherHostsFirst() throws Exception {
        ReplicationSettings settings = new ReplicationSettings(2, false, Duration.ofSeconds(1), Trigger.ON_REQUEST_END,
                Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, settings)) {
            TestMember owner = group.start(0, "a", "blade1");
            TestMember sameHost = group.start(1, "b", "blade1");
            TestMember other1 = group.start(2, "c", "blade2");
            TestMember other2 = group.start(3, "d", "blade3");
            TestGroup.awaitMembers(List.of(owner, sameHost, other1, other2));
            for (int i = 0; i < 10; i++) {
                ShopVisit visit = new ShopVisit(owner).request(Map.of("n", i));
                assertThat(sameHost.backup(visit.id())).as("copy on the owner's host").isEmpty();
                assertThat(other1.backupVersion(visit.id())).isEqualTo(visit.version());
                assertThat(other2.backupVersion(visit.id())).isEqualTo(visit.version());
            }
        }
    }

    private static void assertExactlyPlaced(TestMember owner, List<TestMember> members, List<ShopVisit> visits, int quota) {
        for (ShopVisit visit : visits) {
            assertThat(holders(members, visit)).as("holders of %s", visit.id()).isEqualTo(placed(owner, visit, quota));
        }
    }

    private static boolean placedExactly(TestMember owner, List<TestMember> members, List<ShopVisit> visits, int quota) {
        return visits.stream().allMatch(v -> holders(members, v).equals(placed(owner, v, quota))
                && holders(members, v).size() == quota);
    }

    private static Set<String> holders(List<TestMember> members, ShopVisit visit) {
        Set<String> holders = new TreeSet<>();
        members.stream().filter(m -> m.backupVersion(visit.id()) == visit.version()).forEach(m -> holders.add(m.name()));
        members.stream().filter(m -> m.backup(visit.id()).isPresent()).forEach(m -> holders.add(m.name()));
        return holders;
    }

    private static Set<String> placed(TestMember owner, ShopVisit visit, int quota) {
        List<Member> view = owner.service().clusterView().members();
        Member self = owner.service().clusterView().self();
        Set<String> names = new TreeSet<>();
        new ReplicaPlacement(quota, true).holders(visit.id(), self, view).forEach(m -> names.add(m.name()));
        return names;
    }
}
