package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Ownership moves to the member that takes a session over; the old owner steps back. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TakeoverTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void lookupsAreCountedByOutcome() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            ShopVisit first = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            ShopVisit second = new ShopVisit(a).request(Map.of("cart", "EST-2"));
            TestMember holderOfFirst = holderOf(first, members.get(1), members.get(2));
            TestMember elsewhereForSecond = holderOf(second, members.get(1), members.get(2)) == members.get(1)
                    ? members.get(2) : members.get(1);

            assertThat(holderOfFirst.store().load(first.id())).isPresent();
            assertThat(elsewhereForSecond.store().load(second.id())).isPresent();
            assertThat(a.store().load("nobody-has-this")).isEmpty();

            assertThat(lookups(holderOfFirst, "found-local")).isEqualTo(1);
            assertThat(lookups(elsewhereForSecond, "found-remote")).isEqualTo(1);
            assertThat(lookups(a, "not-found")).isEqualTo(1);
            assertThat(holderOfFirst.counter(ReplicationMetrics.TAKEOVERS, "app", TestGroup.APP)).isPositive();
        }
    }

    private static TestMember holderOf(ShopVisit visit, TestMember one, TestMember other) {
        return one.backup(visit.id()).isPresent() ? one : other;
    }

    private static double lookups(TestMember member, String outcome) {
        return member.counter(ReplicationMetrics.LOOKUPS, "app", TestGroup.APP, "outcome", outcome);
    }

    @Test
    void theOldOwnerStopsReplicatingAndItsExpiryDoesNotRemoveTheSessionFromTheNewOwner() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));

            StoredSession taken = b.store().load(visit.id()).orElseThrow(); // the balancer sent the user to b
            Await.until("c's copy now comes from b, and a holds one too", () -> c.backup(visit.id()).isPresent()
                    && a.backup(visit.id()).isPresent());

            double sentByA = a.changesSent();
            visit.request(Map.of("cart", "stale")); // a misrouted request at the old owner
            assertThat(a.changesSent()).as("the old owner no longer replicates").isEqualTo(sentByA);
            assertThat(c.backupVersion(visit.id())).isEqualTo(taken.version());

            synchronized (visit.session()) {
                a.store().removed(visit.id(), RemovalCause.EXPIRED); // a's stale live copy times out
            }

            TestSession live = continueOn(taken);
            synchronized (live) {
                live.set("cart", "EST-9");
                b.store().attributeChanged(live, "cart");
            }
            b.requestCompleted(live);
            assertThat(c.backupVersion(visit.id())).as("b still replicates the session").isEqualTo(live.version());
            assertThat(b.gauge(ReplicationMetrics.OWNED)).isEqualTo(1.0);
        }
    }

    @Test
    void theOldOwnerIsToldToEvictItsLiveCopyWhenAnotherMemberTakesTheSessionOver() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            ShopVisit untouched = new ShopVisit(a).request(Map.of("cart", "EST-2"));

            b.store().load(visit.id()).orElseThrow(); // the balancer sent the user to b

            Await.until("a's cache was told to evict " + visit.id(), () -> a.cache().evicted().contains(visit.id()));
            assertThat(a.cache().evicted()).as("only the session taken over").doesNotContain(untouched.id());
            assertThat(b.cache().evicted()).as("the new owner keeps its copy").doesNotContain(visit.id());
        }
    }

    @Test
    void aChangeTheOldOwnerSentAsTheTakeoverCrossedItIsKeptNotLost() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(2);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            Await.until("b holds the copy", () -> b.backupVersion(visit.id()) == visit.version());

            StoredSession taken = b.store().load(visit.id()).orElseThrow(); // the balancer failed the user over to b
            Await.until("a yielded and keeps b's state as a copy", () -> a.backup(visit.id()).isPresent());
            // a's next change, sent while the takeover was on its way to a (a request a was still serving)
            StoredSession s = taken;
            GroupFaults.send(a, b, new SessionUpdate(TestGroup.APP, 0, new SessionChange(s.id(), s.version() + 1,
                    ChangeKind.DELTA, s.created(), s.lastAccessed(), s.maxInactiveMillis(),
                    Map.of("cart", TestMember.CODEC.serialize("cart", "EST-2")), Set.of())));

            Await.until("b keeps the session, with a's change, as a copy it can take over again",
                    () -> b.backupVersion(visit.id()) == s.version() + 1);
            StoredSession again = b.store().load(visit.id()).orElseThrow(); // the user's next request, at b
            assertThat(TestMember.CODEC.deserialize("cart", again.attributes().get("cart"))).isEqualTo("EST-2");
        }
    }

    /** The live session a node builds from a loaded copy. */
    private static TestSession continueOn(StoredSession copy) throws Exception {
        TestSession session = new TestSession(copy.id(), TestMember.CODEC);
        synchronized (session) {
            for (var attribute : copy.attributes().entrySet()) {
                session.set(attribute.getKey(), TestMember.CODEC.deserialize(attribute.getKey(), attribute.getValue()));
            }
            session.markReplicated();
            while (session.version() < copy.version()) {
                session.nextVersion();
            }
        }
        return session;
    }
}
