package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.wire.MalformedMessageException;
import io.cohort.replication.wire.ReplicationMessage.MissedRemovals;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.stack.Protocol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A session removed (invalidated, or its id retired by {@code changeSessionId}) while a member holding its copy was cut
 * off from the member that removed it: once the partition heals, that member must not serve the session, also after
 * the remover's own tombstone of the id is gone (members here forget a removed id after a second instead of a
 * minute), and also when the remover crashed or stopped before the heal (a member that was on its side tells the cut-off
 * member then). The removal holds whatever version the session reached on the other side meanwhile: a sign-off (or
 * the old id retired at a sign-on) must not live on where a newer owner went on with the session.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RemovalDuringPartitionTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));
    private static final Duration TOMBSTONE = Duration.ofSeconds(1);
    /** How long a healed group gets to drop copies of removed sessions before a lookup looks for them. */
    private static final Duration REPAIR = Duration.ofSeconds(10);

    private static TestGroup group(int quota) {
        return group(TestGroup.Transport.PEER, quota);
    }

    private static TestGroup group(TestGroup.Transport transport, int quota) {
        return TestGroup.of(transport,
                TestGroup.settings(quota, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))
                .tombstoneLifetime(TOMBSTONE);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestGroup.Transport.class)
    void aSessionInvalidatedWhileItsHolderWasCutOffIsNotServedThereAfterTheHeal(TestGroup.Transport transport)
            throws Exception {
        try (TestGroup group = group(transport, 1)) {
            List<TestMember> members = group.startMembers(2);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit signedOff = new ShopVisit(a).request(Map.of("user", "alice"));
            ShopVisit witness = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            assertThat(b.backupVersion(signedOff.id())).as("b's copy before the partition").isEqualTo(signedOff.version());

            cutOff(b, members);
            signOff(a, signedOff);
            witness.request(Map.of("cart", "EST-2"));
            heal(b, members);
            Await.until("b holds the witness's current version (a placed it again after the heal)",
                    () -> b.backupVersion(witness.id()) == witness.version());

            assertRemovedEverywhere(signedOff.id(), a, b, members);
        }
    }

    @Test
    void anIdRetiredWhileItsHolderWasCutOffIsNotUsableThereAfterTheHeal() throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(2);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            String before = visit.id();
            assertThat(b.backupVersion(before)).as("b's copy before the partition").isEqualTo(visit.version());

            cutOff(b, members);
            TestSession signedOn = signOnWithNewId(a, visit);
            heal(b, members);
            Await.until("b holds the session under its new id (a placed it after the heal)",
                    () -> b.backupVersion(signedOn.id()) == signedOn.version());

            assertRemovedEverywhere(before, a, b, members);
        }
    }

    @Test
    void aSessionThatAThirdMemberTookOverAndInvalidatedIsNotServedByTheCutOffHolder() throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = copiedTo(a, b);

            cutOff(b, members);
            c.store().load(visit.id()).orElseThrow(); // the balancer sends the user to c, which takes the session over
            Await.until("a knows c took the session over", () -> a.cache().evicted().contains(visit.id()));
            c.store().removed(visit.id(), RemovalCause.INVALIDATED); // and the user signs off there
            heal(b, members);

            assertRemovedEverywhere(visit.id(), a, b, members);
        }
    }

    /** How the remover leaves the group before the partition heals. */
    enum Departure {
        CRASH, STOP;

        void of(TestMember member) {
            if (this == CRASH) {
                member.crash();
            } else {
                member.close();
            }
        }
    }

    @ParameterizedTest(name = "remover: {0}")
    @EnumSource(Departure.class)
    void aSessionInvalidatedWhileItsHolderWasCutOffIsNotServedThereWhenTheRemoverLeftBeforeTheHeal(Departure departure)
            throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit signedOff = copiedTo(a, b);
            signedOff.request(Map.of("user", "alice"));

            cutOff(b, members);
            signOff(a, signedOff);
            removerLeavesThenHeal(departure, a, b, List.of(b, c)); // only c, on a's side, is left to tell b

            assertRemovedAmongSurvivors(signedOff.id(), b, List.of(b, c));
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestGroup.Transport.class)
    void everyMemberThatWasOnTheRemoversSideTellsTheCutOffHolderWhenTheRemoverCrashedBeforeTheHeal(
            TestGroup.Transport transport) throws Exception {
        try (TestGroup group = group(transport, 1)) {
            List<TestMember> members = group.startMembers(4);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            List<TestMember> survivors = members.subList(1, 4);
            ShopVisit signedOff = copiedTo(a, b);
            signedOff.request(Map.of("user", "alice"));

            cutOff(b, members);
            signOff(a, signedOff); // shared with c and d (one multicast there)
            Await.until("c and d keep the removal for b", () -> members.subList(2, 4).stream()
                    .allMatch(m -> m.service().sharedRemovals().size(TestGroup.APP) == 1));
            removerLeavesThenHeal(Departure.CRASH, a, b, survivors);

            assertRemovedAmongSurvivors(signedOff.id(), b, survivors); // b hears of it twice: harmless
        }
    }

    @Test
    void anIdRetiredWhileItsHolderWasCutOffIsNotUsableThereWhenTheRemoverCrashedBeforeTheHeal() throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = copiedTo(a, b);
            String before = visit.id();

            cutOff(b, members);
            signOnWithNewId(a, visit);
            removerLeavesThenHeal(Departure.CRASH, a, b, List.of(b, c));

            assertRemovedAmongSurvivors(before, b, List.of(b, c));
        }
    }

    /**
     * A member that does not deploy the application keeps a removal shared with it, and tells the cut-off holder once
     * the remover is gone; what it sends for an application it does not deploy is counted under that application.
     */
    @Test
    void aMemberThatDoesNotDeployTheApplicationTellsTheCutOffHolderWhenTheRemoverCrashedBeforeTheHeal() throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit signedOff = signedOffAtAWhileBIsCutOffAndCWithoutTheApplication(members);
            removerLeavesThenHeal(Departure.CRASH, a, b, List.of(b, c));

            Await.until("b dropped its copy (c told it)", () -> b.backup(signedOff.id()).isEmpty());
            Await.until("b forgot its tombstone", () -> !b.service().backups().removed(TestGroup.APP, signedOff.id()));
            assertThat(b.backup(signedOff.id())).as("b's copy once its tombstone expired").isEmpty();
            assertThat(b.store().load(signedOff.id())).as("a lookup at b").isEmpty();
            assertThat(c.counter(ReplicationMetrics.MESSAGES, "app", TestGroup.APP, "direction", ReplicationMetrics.SENT))
                    .as("messages c sent for the application it does not deploy").isGreaterThanOrEqualTo(1);
        }
    }

    /**
     * A removal kept for a cut-off member that could not be sent to it once it was back in the view is a failure of the
     * application, counted also where the application is not deployed ({@code PlainFrames}); here every
     * {@code MissedRemovals} c sends b fails on its way down c's stack.
     */
    @Test
    void aRemovalAMemberWithoutTheApplicationCouldNotPassOnToAMemberInItsViewCountsAsAFailure() throws Exception {
        try (TestGroup group = group(1)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            signedOffAtAWhileBIsCutOffAndCWithoutTheApplication(members);
            RefusedMissedRemovals refused = new RefusedMissedRemovals(c, GroupFaults.address(b));
            c.service().channel().channel().getProtocolStack().insertProtocolAtTop(refused);
            removerLeavesThenHeal(Departure.CRASH, a, b, List.of(b, c));

            Await.until("c tried to tell b", () -> refused.refused() >= 1);
            Await.until("c counted what it could not send b as the application's failure",
                    () -> c.counter(ReplicationMetrics.FAILURES, "app", TestGroup.APP) >= refused.refused());
            assertThat(c.counter(ReplicationMetrics.FAILURES, "app", TestGroup.APP))
                    .as("failures c counted for the application it does not deploy")
                    .isBetween(1.0, (double) refused.refused());
        }
    }

    /**
     * The remover crashed and restarted under its name while the holder was cut off: its new ledger cannot know the
     * holder left, and before it kept every removal for its first minutes, a removal made while all it knew of were
     * present was forgotten after the delivery window and never shared (a review reproduced it with a 62 s partition).
     */
    @Test
    void aSessionSignedOffAtARemoverThatRestartedWhileTheHolderWasCutOffIsNotServedThereAfterTheHeal() throws Exception {
        try (TestGroup group = group(2)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("user", "alice"));
            Await.until("b and c hold copies", () -> b.backupVersion(visit.id()) == visit.version()
                    && c.backupVersion(visit.id()) == visit.version());

            cutOff(b, members);
            a.crash();
            TestGroup.awaitMembers(List.of(c));
            TestMember restarted = group.start(0, a.name());
            TestGroup.awaitMembers(List.of(restarted, c));
            TestSession live = TestSession.continuing(restarted.store().load(visit.id()).orElseThrow(), TestMember.CODEC);
            synchronized (live) {
                restarted.store().removed(live.id(), RemovalCause.INVALIDATED); // the user signs off at the new a
            }
            Thread.sleep(TOMBSTONE.multipliedBy(3).toMillis()); // past the delivery window (the tombstone's lifetime)
            heal(b, List.of(restarted, b, c));

            assertRemovedAmongSurvivors(visit.id(), b, List.of(restarted, b, c));
        }
    }

    @Test
    void aSignOffOnAStaleCopyEndsTheSessionAlsoWhereItWentOnOnTheOtherSide() throws Exception {
        try (TestGroup group = group(2)) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).request(Map.of("cart", "EST-1"));
            ShopVisit witness = new ShopVisit(a).request(Map.of("cart", "EST-1"));

            cutOff(a, members);
            // on b's and c's side the user goes on at c, with two more requests than a saw
            TestSession live = TestSession.continuing(c.store().load(visit.id()).orElseThrow(), TestMember.CODEC);
            for (int step = 1; step <= 2; step++) {
                synchronized (live) {
                    live.set("step", step);
                    c.store().attributeChanged(live, "step");
                }
                c.requestCompleted(live);
            }
            assertThat(live.version()).as("c's version against a's").isGreaterThan(visit.version());
            signOff(a, visit); // the user signs off at a, on its older copy
            witness.request(Map.of("cart", "EST-2"));
            heal(a, members);

            Await.until("c stopped owning the session", () -> !c.service().transportOf(TestGroup.APP).tracks(visit.id()));
            assertThat(c.cache().evicted()).as("sessions c's cache was told to evict").contains(visit.id());
            assertRemovedEverywhere(visit.id(), a, c, members);
        }
    }

    /**
     * Preparing a removal runs under the node's lock of the session and must not wait on the network
     * ({@code SessionTransport}): the removal's {@code SharedRemoval}s for the members present go with its dispatch,
     * not from {@code prepareRemoval}. Here every message a sends to one member is held up for 2 s.
     */
    @Test
    void aRemovalSharedWithTheMembersPresentIsPreparedWithoutWaitingOnTheNetwork() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            ShopVisit visit = new ShopVisit(a).request(Map.of("user", "alice"));
            cutOff(members.get(1), members);
            SlowUnicasts slow = new SlowUnicasts();
            a.service().channel().channel().getProtocolStack().insertProtocolAtTop(slow);

            long start = System.nanoTime();
            Dispatch dispatch;
            synchronized (visit.session()) {
                dispatch = a.service().transportOf(TestGroup.APP).prepareRemoval(visit.id(), RemovalCause.INVALIDATED);
            }
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            slow.off();
            dispatch.send();

            assertThat(millis).as("ms prepareRemoval took under the session's lock").isLessThan(500);
            Await.until("c keeps the shared removal for b",
                    () -> members.get(2).service().sharedRemovals().size(TestGroup.APP) == 1);
        }
    }

    /** Fails every {@code MissedRemovals} {@code from} sends to one member, as a send that throws; other messages pass. */
    private static final class RefusedMissedRemovals extends Protocol {
        private final TestMember from;
        private final Address to;
        private final AtomicInteger refused = new AtomicInteger();

        RefusedMissedRemovals(TestMember from, Address to) {
            this.from = from;
            this.to = to;
        }

        int refused() {
            return refused.get();
        }

        @Override
        public Object down(Message message) {
            if (to.equals(message.dest()) && isMissedRemovals(message)) {
                refused.incrementAndGet();
                throw new IllegalStateException("refused on purpose: MissedRemovals to " + to);
            }
            return super.down(message);
        }

        private boolean isMissedRemovals(Message message) {
            try {
                return message.getLength() > 0 && from.service().codec().decode(message.getArray(), message.getOffset(),
                        message.getLength()) instanceof MissedRemovals;
            } catch (MalformedMessageException bundle) {
                return false;
            }
        }
    }

    /** Holds up every message to one member on its way down the stack for 2 s, until {@link #off}. */
    private static final class SlowUnicasts extends Protocol {
        private volatile boolean on = true;

        void off() {
            on = false;
        }

        @Override
        public Object down(Message message) {
            if (on && message.dest() != null) {
                try {
                    Thread.sleep(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return super.down(message);
        }
    }

    /**
     * What the removal must have left once the group healed and {@code remover}'s tombstone of the id expired: no copy
     * anywhere, and a lookup at the cut-off member {@code cutOff} finds nothing.
     */
    private static void assertRemovedEverywhere(String id, TestMember remover, TestMember cutOff, List<TestMember> members) {
        Await.until(remover.name() + " forgot its tombstone of " + id,
                () -> !remover.service().backups().removed(TestGroup.APP, id));
        Await.within(REPAIR, () -> members.stream().allMatch(m -> m.backup(id).isEmpty()));
        List<String> holding = members.stream().filter(m -> m.backup(id).isPresent()).map(TestMember::name).toList();
        assertThat(cutOff.store().load(id))
                .as("a lookup at %s, after the heal and after %s's tombstone expired, for the id %s removed while %s was "
                        + "cut off (members holding a copy before the lookup: %s)", cutOff.name(), remover.name(), id,
                        cutOff.name(), holding)
                .isEmpty();
        assertThat(members).allSatisfy(m -> assertThat(m.backup(id)).as("%s's copy", m.name()).isEmpty());
    }

    /**
     * What the removal must have left among {@code survivors} once the group healed without the remover and their own
     * tombstones of the id expired: no copy anywhere, and a lookup at each survivor finds nothing.
     */
    private static void assertRemovedAmongSurvivors(String id, TestMember cutOff, List<TestMember> survivors) {
        Await.until("the survivors forgot their tombstones of " + id,
                () -> survivors.stream().noneMatch(m -> m.service().backups().removed(TestGroup.APP, id)));
        Await.within(REPAIR, () -> survivors.stream().allMatch(m -> m.backup(id).isEmpty()));
        List<String> holding = survivors.stream().filter(m -> m.backup(id).isPresent()).map(TestMember::name).toList();
        for (TestMember survivor : survivors) {
            assertThat(survivor.store().load(id))
                    .as("a lookup at %s, after the heal without the remover and after the tombstones expired, for the "
                            + "id %s removed while %s was cut off (members holding a copy before the lookups: %s)",
                            survivor.name(), id, cutOff.name(), holding)
                    .isEmpty();
        }
        assertThat(survivors).allSatisfy(m -> assertThat(m.backup(id)).as("%s's copy", m.name()).isEmpty());
    }

    /**
     * The remover leaves the group before the partition heals; then the cut-off member is back among the others
     * ({@code survivors}, the cut-off member among them).
     */
    private static void removerLeavesThenHeal(Departure departure, TestMember remover, TestMember cutOff,
            List<TestMember> survivors) {
        departure.of(remover);
        TestGroup.awaitMembers(survivors.stream().filter(m -> m != cutOff).toList());
        heal(cutOff, survivors);
    }

    private static void cutOff(TestMember member, List<TestMember> members) throws Exception {
        GroupFaults.isolate(member);
        TestGroup.awaitMembers(members.stream().filter(m -> m != member).toList());
        TestGroup.awaitMembers(List.of(member));
    }

    private static void heal(TestMember member, List<TestMember> members) {
        GroupFaults.heal(member);
        TestGroup.awaitMembers(members, Duration.ofSeconds(45));
    }

    /** The user signs off at {@code member}: a request there invalidates the session. */
    private static void signOff(TestMember member, ShopVisit visit) {
        synchronized (visit.session()) {
            member.store().removed(visit.id(), RemovalCause.INVALIDATED);
        }
    }

    /** The user signs on at {@code member}, whose request changes the session's id ({@code changeSessionId()}). */
    private static TestSession signOnWithNewId(TestMember member, ShopVisit visit) {
        TestSession signedOn = visit.session().renamed(visit.id() + "-signed-on");
        synchronized (signedOn) {
            signedOn.set("user", "alice");
            member.store().idChanged(visit.id(), signedOn);
        }
        member.requestCompleted(signedOn);
        return signedOn;
    }

    /**
     * Of members a, b and c: a session of a's placed on b, c undeploys the application (and stays in the group), b is
     * cut off, the user signs off at a, and c keeps the shared removal for b.
     */
    private static ShopVisit signedOffAtAWhileBIsCutOffAndCWithoutTheApplication(List<TestMember> members)
            throws Exception {
        TestMember a = members.get(0);
        TestMember b = members.get(1);
        TestMember c = members.get(2);
        ShopVisit signedOff = copiedTo(a, b);
        c.store().stop();
        Await.until("c no longer deploys the application", () -> c.service().transportOf(TestGroup.APP) == null);
        cutOff(b, members);
        signOff(a, signedOff);
        Await.until("c keeps the removal for b", () -> c.service().sharedRemovals().size(TestGroup.APP) == 1);
        return signedOff;
    }

    /** A session of {@code owner} whose one copy is at {@code holder}. */
    private static ShopVisit copiedTo(TestMember owner, TestMember holder) {
        for (int i = 0; i < 60; i++) {
            ShopVisit visit = new ShopVisit(owner).request(Map.of("cart", "EST-1"));
            if (holder.backupVersion(visit.id()) == visit.version()) {
                return visit;
            }
        }
        throw new AssertionError("no session of " + owner.name() + " placed on " + holder.name() + " in 60 tries");
    }

}
