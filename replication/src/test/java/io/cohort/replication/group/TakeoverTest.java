package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.cluster.Member;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.placement.ReplicaPlacement;
import io.cohort.replication.wire.ReplicationMessage.ReleaseCopy;
import io.cohort.replication.wire.ReplicationMessage.SessionUpdate;
import io.cohort.replication.wire.ReplicationMessage.Touch;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import java.time.Duration;
import java.time.Instant;
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

            TestSession live = TestSession.continuing(taken, TestMember.CODEC);
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
    void aSignOffOnTheOldOwnersStaleCopyEndsTheSessionAtItsNewOwnerToo() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("user", "alice"));
            b.store().load(visit.id()).orElseThrow(); // the balancer sent the user to b
            Await.until("a knows b took the session over", () -> a.cache().evicted().contains(visit.id()));

            // the user's sign-off still ran on a's copy (a request in flight there when b took over)
            synchronized (visit.session()) {
                a.store().removed(visit.id(), RemovalCause.INVALIDATED);
            }

            Await.until("b dropped its live copy", () -> b.cache().evicted().contains(visit.id()));
            assertThat(b.store().load(visit.id())).as("the session at b after the sign-off").isEmpty();
            assertThat(members).allMatch(m -> m.backup(visit.id()).isEmpty());
        }
    }

    @Test
    void anIdChangeOnTheOldOwnersStaleCopyLeavesTheSessionAtItsNewOwnerAndMakesANewSessionOfTheStaleOne()
            throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            String id = visit.id();
            TestSession atB = TestSession.continuing(b.store().load(id).orElseThrow(), TestMember.CODEC);
            Await.until("a knows b took the session over", () -> a.cache().evicted().contains(id));
            synchronized (atB) {
                atB.set("cart", "EST-2"); // the user went on at b
                b.store().attributeChanged(atB, "cart");
            }
            b.requestCompleted(atB);

            // a sign-on still ran on a's copy (a request in flight there when b took over) and gives it a new id;
            // synchronous delivery: whatever a sends for it has been applied when this returns
            TestSession signedOn = visit.session().renamed(id + "-signed-on");
            synchronized (signedOn) {
                signedOn.set("user", "alice");
                a.store().attributeChanged(signedOn, "user");
                a.store().idChanged(id, signedOn);
            }
            a.requestCompleted(signedOn);

            assertThat(b.cache().evicted()).as("b's live session").doesNotContain(id);
            StoredSession atBNow = b.store().load(id).orElseThrow();
            assertThat(atBNow.version()).as("b still owns the session it went on with").isEqualTo(atB.version());
            assertThat(TestMember.CODEC.deserialize("cart", atBNow.attributes().get("cart"))).isEqualTo("EST-2");
            Await.until("a member holds b's copy", () -> members.stream()
                    .anyMatch(m -> m != b && m.backupVersion(id) == atB.version()));
            Await.until("a member holds a copy of a's session under its new id", () -> members.stream()
                    .anyMatch(m -> m != a && m.backup(signedOn.id()).isPresent()));
            assertThat(a.gauge(ReplicationMetrics.OWNED)).as("a owns the new id's session").isEqualTo(1.0);
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
    void aReleaseFromTheFormerOwnerDoesNotDropACopyTheNewOwnerKept() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(2, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            Await.until("b and c hold the copy",
                    () -> b.backupVersion(visit.id()) == visit.version() && c.backupVersion(visit.id()) == visit.version());

            b.store().load(visit.id()).orElseThrow(); // the balancer failed the user over to b, which places on a and c
            Await.until("a yielded and keeps b's state as a copy", () -> a.backup(visit.id()).isPresent());
            Await.until("c keeps its copy for b", () -> {
                BackupStore.Copy copy = c.service().backups().copiesOf(TestGroup.APP).get(visit.id());
                return copy != null && copy.owner().equals(b.name());
            });
            // a's release of c's copy, decided before the takeover (a rebalance it was confirming), arrives after it
            GroupFaults.send(a, c, new ReleaseCopy(TestGroup.APP, visit.id(), visit.version()));
            Instant probe = Instant.now().plusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.MILLIS); // wire: ms
            GroupFaults.send(a, c, new Touch(TestGroup.APP, visit.id(), visit.version(), probe)); // behind it, same link

            Await.until("c has heard a's touch, which came after its release",
                    () -> c.backup(visit.id()).map(copy -> copy.lastAccessed().equals(probe)).orElse(false));
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

    @Test
    void aHolderTakingOverAsksTheOwnerItsCopyCameFromEvenWhenThePlacementRanksTheOwnerLow() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(4);
            TestMember a = members.get(0);
            // the balancer sends the user's next request to the holder (it thought a was down), which would not ask a
            Takeover takeover = findTakeover(members, (taking, holder, likely) ->
                    taking == holder && !likely.contains(a.name()));
            assertTakesOverTheOwnersNewerState(a, takeover);
        }
    }

    @Test
    void aMemberWithoutACopyFindsTheOwnersNewerStateNotJustTheHoldersCopy() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(4);
            TestMember a = members.get(0);
            // the user's next request reaches a member with no copy, which ranks the holder, not a, as likely
            Takeover takeover = findTakeover(members, (taking, holder, likely) ->
                    taking != holder && likely.contains(holder.name()) && !likely.contains(a.name()));
            assertTakesOverTheOwnersNewerState(a, takeover);
        }
    }

    @Test
    void aChangeThatArrivesWhileTheTakeoverWaitsForAnswersWinsOverTheOlderCopy() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(2);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            Await.until("b holds the copy", () -> b.backupVersion(visit.id()) == visit.version());
            StoredSession s = a.store().load(visit.id()).orElseThrow();

            // a's answer to b's lookup never comes (b waits the whole cache-miss-delay), but a's next change does,
            // while b waits
            AutoCloseable unanswered = GroupFaults.holdBackAllFrom(a, b);
            Thread change = new Thread(() -> {
                try {
                    Thread.sleep(300);
                    unanswered.close();
                    GroupFaults.send(a, b, new SessionUpdate(TestGroup.APP, 0, new SessionChange(s.id(),
                            s.version() + 1, ChangeKind.FULL, s.created(), s.lastAccessed(), s.maxInactiveMillis(),
                            Map.of("cart", TestMember.CODEC.serialize("cart", "EST-2")), Set.of())));
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            change.start();
            StoredSession taken = b.store().load(visit.id()).orElseThrow();
            change.join();

            assertThat(taken.version()).isEqualTo(s.version() + 1);
            assertThat(TestMember.CODEC.deserialize("cart", taken.attributes().get("cart"))).isEqualTo("EST-2");
            assertThat(b.backup(visit.id())).as("no copy left behind at the new owner").isEmpty();
        }
    }

    @Test
    void aTakeoverRightAfterTheOwnerCrashedDoesNotWaitForTheDeadOwnersAnswer() throws Exception {
        // the crashed owner stays in the view for as long as its suspicion is verified: longer than the test's bound
        Duration verification = Duration.ofSeconds(15);
        ReplicationSettings settings = new ReplicationSettings(1, true, verification, Trigger.ON_REQUEST_END,
                Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER, settings)
                .tuning(Map.of("cohort.verify_suspect.timeout", verification.toMillis() + "ms"))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            TestMember holder = holderOf(visit, members.get(1), members.get(2));
            TestMember other = holder == members.get(1) ? members.get(2) : members.get(1);
            ShopVisit second = new ShopVisit(a).request(Map.of("cart", "EST-2"));

            a.crash();
            long start = System.nanoTime();
            StoredSession fromCopy = holder.store().load(visit.id()).orElseThrow();
            StoredSession searched = (other.backup(second.id()).isPresent() ? holder : other).store()
                    .load(second.id()).orElseThrow();
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(took).as("both takeovers, without waiting for the dead owner").isLessThan(Duration.ofSeconds(8));
            assertThat(members(holder)).as("a is still in the view").contains(a.name());
            assertThat(fromCopy.version()).isEqualTo(visit.version());
            assertThat(searched.version()).isEqualTo(second.version());
        }
    }

    private static List<String> members(TestMember member) {
        return member.service().clusterView().members().stream().map(Member::name).toList();
    }

    /** A session of the first member, its holder, and the member that takes it over. */
    private record Takeover(ShopVisit visit, TestMember holder, TestMember taking) {
    }

    /** Which member taking over which session a test needs, given that member's likely holders of it. */
    private interface TakeoverShape {
        boolean matches(TestMember taking, TestMember holder, List<String> likely);
    }

    /** Creates sessions at the first member until one and a member to take it over have the {@code shape} wanted. */
    private static Takeover findTakeover(List<TestMember> members, TakeoverShape shape) {
        for (int i = 0; i < 60; i++) {
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", "EST-1"));
            Await.until("a copy of " + visit.id() + " is placed",
                    () -> members.stream().anyMatch(m -> m.backupVersion(visit.id()) == visit.version()));
            TestMember holder = members.stream().filter(m -> m.backupVersion(visit.id()) == visit.version())
                    .findFirst().orElseThrow();
            for (TestMember taking : members.subList(1, members.size())) {
                if (shape.matches(taking, holder, likelyHolders(taking, visit.id()))) {
                    return new Takeover(visit, holder, taking);
                }
            }
        }
        throw new AssertionError("no session of the shape wanted in 60 tries");
    }

    /**
     * The owner's next change is still on its way to the holder when the user's next request reaches the member
     * taking over, which must take the session over with that change, not with the holder's older copy.
     */
    private static void assertTakesOverTheOwnersNewerState(TestMember owner, Takeover takeover) throws Exception {
        ShopVisit visit = takeover.visit();
        long copied = visit.version();
        try (AutoCloseable inFlight = GroupFaults.holdBackAllButLookupRepliesFrom(owner, takeover.holder())) {
            visit.request(Map.of("cart", "EST-2")); // replicated asynchronously, still on its way to the holder
            StoredSession taken = takeover.taking().store().load(visit.id()).orElseThrow();
            assertThat(taken.version()).as("the owner's newer state, not the copy of version %d", copied)
                    .isEqualTo(visit.version());
            assertThat(TestMember.CODEC.deserialize("cart", taken.attributes().get("cart"))).isEqualTo("EST-2");
        }
    }

    private static List<String> likelyHolders(TestMember member, String sessionId) {
        List<Member> others = member.service().clusterView().members().stream()
                .filter(m -> !m.name().equals(member.name())).toList();
        return new ReplicaPlacement(1, true).likelyHolders(sessionId, others).stream().map(Member::name).toList();
    }

    @Test
    void anOwnerWhoseStateAnotherMemberLookedUpAndTookOverStepsBackAtTheVersionItTookItOverAt() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, new Delivery.Sync(Duration.ofSeconds(2))))) {
            List<TestMember> members = group.startMembers(4);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(c).request(Map.of("cart", "EST-1"));
            String id = visit.id();
            StoredSession atA = a.store().load(id).orElseThrow(); // c's user failed over to a, and only reads since
            Await.until("c stepped back", () -> c.cache().evicted().contains(id));

            // a missed a health check: the balancer sends the user to b, which takes the session over from a's state,
            // at the version a took it over at (a "lower" name than b, which wins a tie between two racing takeovers)
            StoredSession atB = b.store().load(id).orElseThrow();
            assertThat(atB.version()).isEqualTo(atA.version());

            Await.until("a stepped back", () -> a.cache().evicted().contains(id));
            assertThat(a.service().transportOf(TestGroup.APP).owned().owns(id)).as("a owns the session").isFalse();
            assertThat(b.service().transportOf(TestGroup.APP).owned().owns(id)).as("b owns the session").isTrue();
            double sentByA = a.changesSent();
            TestSession stale = TestSession.continuing(atA, TestMember.CODEC); // a request still on its way to a
            synchronized (stale) {
                stale.set("cart", "stale");
                a.store().attributeChanged(stale, "cart");
            }
            a.requestCompleted(stale);
            assertThat(a.changesSent()).as("changes a replicated after b took over").isEqualTo(sentByA);
            a.store().removed(id, RemovalCause.EXPIRED); // a's forgotten copy times out
            Thread.sleep(300); // nothing to wait for: an expiry that reached b would take the session from it
            assertThat(b.service().transportOf(TestGroup.APP).owned().owns(id)).as("b still owns the session").isTrue();
        }
    }

}
