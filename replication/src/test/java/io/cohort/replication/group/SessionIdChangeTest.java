package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.session.contract.TestSession;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Changes of a session's id ({@code HttpSession.changeSessionId()} at sign-on) under asynchronous delivery, while the
 * owner's changes are still on their way: the holders end with the session under its newest id only. Safe by
 * construction: the old id's removal goes to the lane of the old id, behind every change queued under it, the new id's
 * full copy (taken after the change) to the lane of the new id, and a change under a retired id that still arrives
 * after its removal meets the holder's tombstone.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SessionIdChangeTest {

    @ParameterizedTest(name = "write-quota {0}")
    @ValueSource(ints = {1, 2})
    void twoChangesOfIdWithAChangeStillQueuedLeaveTheHoldersTheSessionUnderTheNewestIdOnly(int quota) throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, TestGroup.settings(quota, Trigger.ON_SET_ATTRIBUTE,
                Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(quota + 1);
            TestMember owner = members.get(0);
            List<TestMember> holders = members.subList(1, members.size());
            ShopVisit visit = new ShopVisit(owner).request(Map.of("cart", "EST-1"));
            String first = visit.id();
            Await.until("every holder has the copy", () -> holders.stream()
                    .allMatch(h -> h.backupVersion(first) == visit.version()));
            TestSession session = visit.session();
            String second = first + "-signed-on";
            String third = first + "-stepped-up";
            TestSession last;

            try (AutoCloseable inFlight = GroupFaults.holdOutgoing(owner)) {
                synchronized (session) {
                    session.set("cart", "EST-2"); // a change under the first id, queued
                    owner.store().attributeChanged(session, "cart");
                }
                TestSession signedOn = session.renamed(second);
                synchronized (signedOn) {
                    owner.store().idChanged(first, signedOn);
                }
                last = signedOn.renamed(third);
                synchronized (last) {
                    owner.store().idChanged(second, last);
                }
            }

            long version = last.version();
            for (TestMember holder : holders) {
                Await.until(holder.name() + " has the session under its newest id",
                        () -> holder.backupVersion(third) == version);
                assertThat(TestMember.CODEC.deserialize("cart", holder.backup(third).orElseThrow().attributes().get("cart")))
                        .as("%s's copy under the newest id has the change queued under the first", holder.name())
                        .isEqualTo("EST-2");
                Await.until(holder.name() + " keeps no copy under a retired id",
                        () -> holder.backup(first).isEmpty() && holder.backup(second).isEmpty());
            }
            assertThat(holders).allSatisfy(holder -> assertThat(holder.service().backups().count(TestGroup.APP))
                    .as("copies at %s", holder.name()).isEqualTo(1));
        }
    }
}
