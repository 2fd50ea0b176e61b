package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.StoredSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A copy with an older version never wins over a newer one. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class VersionsTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void anOlderFullCopyDoesNotReplaceANewerCopy() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(2);
            TestMember owner = members.get(0);
            TestMember holder = members.get(1);
            ShopVisit visit = new ShopVisit(owner).request(Map.of("step", 1)).request(Map.of("step", 2));
            StoredSession current = holder.backup(visit.id()).orElseThrow();
            StoredSession stale = new StoredSession(current.id(), 1, current.created(), current.lastAccessed(),
                    current.maxInactiveMillis(), Map.of("step", TestMember.CODEC.serialize("step", 1)));

            GroupFaults.send(owner, holder, new SessionUpdate(TestGroup.APP, 0, SessionChange.full(stale)));
            visit.request(Map.of("marker", true)); // sent after the stale copy, on the same ordered channel

            StoredSession after = holder.backup(visit.id()).orElseThrow();
            assertThat(after.version()).isEqualTo(visit.version());
            assertThat(TestMember.CODEC.deserialize("step", after.attributes().get("step"))).isEqualTo(2);
        }
    }

    @Test
    void aHolderThatLostItsCopyAsksTheOwnerForAllOfItAtTheNextChange() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(2);
            TestMember owner = members.get(0);
            TestMember holder = members.get(1);
            ShopVisit visit = new ShopVisit(owner).request(Map.of("account", "j2ee", "cart", "EST-1"));
            holder.service().backups().promote(TestGroup.APP, visit.id()); // the copy is lost

            visit.request(Map.of("cart", "EST-2")); // a delta the holder cannot apply

            assertThat(holder.counter(io.cohort.replication.engine.ReplicationMetrics.GAPS, "app", TestGroup.APP)).isEqualTo(1);
            StoredSession repaired = holder.backup(visit.id()).orElseThrow();
            assertThat(repaired.version()).as("repaired before the synchronous request returned").isEqualTo(visit.version());
            assertThat(repaired.attributes()).containsOnlyKeys("account", "cart");
        }
    }

    @Test
    void staleCopyOfAMemberCutOffByAPartitionIsReplacedWhenThePartitionHeals() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("step", 1));
            long before = visit.version();
            assertThat(c.backupVersion(visit.id())).isEqualTo(before);

            GroupFaults.isolate(c);
            TestGroup.awaitMembers(List.of(a, b));
            visit.request(Map.of("step", 2)).request(Map.of("step", 3));
            assertThat(c.backupVersion(visit.id())).as("the cut-off member's copy is stale").isEqualTo(before);

            GroupFaults.heal(c);
            TestGroup.awaitMembers(members);
            Await.until("the healed member holds the current version", () -> c.backupVersion(visit.id()) == visit.version());

            a.crash();
            StoredSession served = c.store().load(visit.id()).orElseThrow();
            assertThat(served.version()).isEqualTo(visit.version());
            assertThat(TestMember.CODEC.deserialize("step", served.attributes().get("step"))).isEqualTo(3);
        }
    }

    @Test
    void anOwnerCutOffByAPartitionStepsBackWhenItHealsIfTheSessionWentOnElsewhere() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(c).request(Map.of("step", 1)).request(Map.of("step", 2));
            long cutOffAt = visit.version();

            GroupFaults.isolate(c);
            TestGroup.awaitMembers(List.of(a, b));
            StoredSession taken = a.store().load(visit.id()).orElseThrow(); // the customer carries on at a
            long newest = moreRequestsOn(a, taken);
            assertThat(c.cache().evicted()).as("c heard nothing while cut off").doesNotContain(visit.id());

            GroupFaults.heal(c);
            TestGroup.awaitMembers(members);

            Await.until("the stale owner evicted its live copy", () -> c.cache().evicted().contains(visit.id()));
            Await.until("and holds the current state as a copy", () -> c.backupVersion(visit.id()) == newest);
            assertThat(newest).isGreaterThan(cutOffAt);
            assertThat(TestMember.CODEC.deserialize("step", c.backup(visit.id()).orElseThrow().attributes().get("step")))
                    .isEqualTo(4);
            assertThat(a.backupVersion(visit.id())).as("the stale copy did not win at the new owner").isEqualTo(-1);
        }
    }

    @Test
    void aRestartedOwnerGetsTheNewestCopyNotTheOneItLostWhenItCrashed() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("step", 1)).request(Map.of("step", 2));
            long crashedAt = visit.version();
            a.crash();
            TestGroup.awaitMembers(List.of(b, c));

            StoredSession taken = b.store().load(visit.id()).orElseThrow();
            assertThat(taken.version()).isEqualTo(crashedAt);
            long newest = moreRequestsOn(b, taken);

            TestMember restarted = group.start(0, "a");
            TestGroup.awaitMembers(List.of(restarted, b, c));
            StoredSession back = restarted.store().load(visit.id()).orElseThrow();

            assertThat(back.version()).isEqualTo(newest).isGreaterThan(crashedAt);
            assertThat(TestMember.CODEC.deserialize("step", back.attributes().get("step"))).isEqualTo(4);
        }
    }

    /** The new owner serves two more requests (its live session continues from the copy). */
    private static long moreRequestsOn(TestMember owner, StoredSession taken) {
        var session = new io.cohort.session.contract.TestSession(taken.id(), TestMember.CODEC);
        synchronized (session) {
            taken.attributes().forEach((name, bytes) -> {
                try {
                    session.set(name, TestMember.CODEC.deserialize(name, bytes));
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            session.markReplicated();
            while (session.version() < taken.version()) {
                session.nextVersion();
            }
        }
        for (int step = 3; step <= 4; step++) {
            synchronized (session) {
                session.set("step", step);
                owner.store().attributeChanged(session, "step");
            }
            owner.requestCompleted(session);
        }
        synchronized (session) {
            return session.version();
        }
    }
}
