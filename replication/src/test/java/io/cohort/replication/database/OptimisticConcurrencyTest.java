package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.group.RecordingCache;
import io.cohort.replication.group.ShopVisit;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ownership on the database: the node that loads a session claims its row; the old owner's later
 * writes match no row, are counted as conflicts, make it evict its stale copy, and never overwrite
 * the newer state.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class OptimisticConcurrencyTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void staleOwnersWriteAfterATakeoverIsRejectedAndItsCacheEvicts() throws Exception {
        for (Scope scope : Scope.values()) {
            try (TestDatabase database = new H2Database();
                 DatabaseNode a = DatabaseNode.start("a", database, TestGroup.settings(1, Trigger.ON_REQUEST_END, scope, SYNC));
                 DatabaseNode b = DatabaseNode.start("b", database, TestGroup.settings(1, Trigger.ON_REQUEST_END, scope, SYNC))) {
                SessionRows rows = new SessionRows(database);
                ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
                StoredSession taken = b.store().load(atA.id()).orElseThrow(); // the balancer sent the user to b
                TestSession atB = TestSession.continuing(taken, TestMember.CODEC);
                synchronized (atB) {
                    atB.set("cart", "EST-2");
                    b.store().attributeChanged(atB, "cart");
                    b.store().requestCompleted(atB);
                }

                atA.request(Map.of("cart", "stale")); // a misrouted request at the old owner

                assertThat(a.conflicts()).as(scope + ": conflicts counted at a").isEqualTo(1);
                assertThat(a.cache().evicted()).as(scope + ": a's cache told to evict").containsExactly(atA.id());
                assertThat(rows.owner(atA.id())).contains("b");
                assertThat(rows.version(atA.id())).isEqualTo(atB.version());
                StoredSession current = a.store().load(atA.id()).orElseThrow();
                assertThat(TestMember.CODEC.deserialize("cart", current.attributes().get("cart"))).isEqualTo("EST-2");
            }
        }
    }

    @Test
    void staleOwnersWriteIsRejectedEvenBeforeTheNewOwnerChangedAnything() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
            b.store().load(atA.id()).orElseThrow();

            atA.request(Map.of("cart", "stale"));
            atA.request(Map.of("cart", "staler")); // after the conflict, a does not write the session at all

            assertThat(a.conflicts()).isEqualTo(1);
            assertThat(TestMember.CODEC.deserialize("cart", b.store().load(atA.id()).orElseThrow().attributes().get("cart")))
                    .isEqualTo("EST-1");
        }
    }

    @Test
    void staleOwnersExpiryDoesNotDeleteTheNewOwnersSession() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
            b.store().load(atA.id()).orElseThrow();

            synchronized (atA.session()) {
                a.store().removed(atA.id(), RemovalCause.EXPIRED); // a's stale live copy times out
            }

            assertThat(new SessionRows(nodes.database()).owner(atA.id())).contains("b");
            assertThat(b.store().exists(atA.id())).isTrue();
            // nor does a hide the session, alive at b, from a request the balancer sends to a
            assertThat(a.store().load(atA.id())).as("the session at a").isPresent();
        }
    }

    @Test
    void aSignOffAtAStaleOwnerEndsTheSessionWhereItLivesNow() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            SessionRows rows = new SessionRows(nodes.database());
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("user", "alice"));
            takenOverAndChangedAt(b, atA.id(), "EST-2"); // the balancer had passed a by; the user shops on at b

            synchronized (atA.session()) { // back at a (b went away), the user signs off
                a.store().removed(atA.id(), RemovalCause.INVALIDATED);
            }

            assertThat(rows.version(atA.id())).as("the signed-off session's row at b").isEqualTo(-1);
            assertThat(a.store().load(atA.id())).as("the signed-off session, loaded again at a").isEmpty();
        }
    }

    @Test
    void aSignOffAtAnOwnerThatAlreadyKnowsItsCopyIsStaleStillEndsTheSession() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            SessionRows rows = new SessionRows(nodes.database());
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("user", "alice"));
            b.store().load(atA.id()).orElseThrow();
            atA.request(Map.of("cart", "stale")); // a learns it lost the session

            synchronized (atA.session()) { // and the same page signs the user off
                a.store().removed(atA.id(), RemovalCause.INVALIDATED);
            }

            assertThat(a.conflicts()).isEqualTo(1);
            assertThat(rows.version(atA.id())).as("the signed-off session's row at b").isEqualTo(-1);
        }
    }

    @Test
    void aCopyAnotherNodeLoadedSinceIsFoundStaleBeforeARequestUsesIt() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
            assertThat(a.store().copyStale(atA.id())).as("just written by a").isFalse();
            takenOverAndChangedAt(b, atA.id(), "EST-2"); // the balancer passed a by; the user shops on at b
            Thread.sleep(DatabaseSessionTransport.OWNERSHIP_CHECK_AFTER.toMillis() + 100); // the user comes back to a

            assertThat(a.store().copyStale(atA.id())).isTrue();
            assertThat(a.cache().evicted()).containsExactly(atA.id());
            assertThat(a.conflicts()).isEqualTo(1);
            StoredSession current = a.store().load(atA.id()).orElseThrow(); // the request's lookup
            assertThat(TestMember.CODEC.deserialize("cart", current.attributes().get("cart"))).isEqualTo("EST-2");
            assertThat(a.store().copyStale(atA.id())).as("loaded again: a's now").isFalse();
        }
    }

    @Test
    void aCopyWhoseSessionWasSignedOffElsewhereIsFoundStale() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("user", "alice"));
            TestSession atB = TestSession.continuing(b.store().load(atA.id()).orElseThrow(), TestMember.CODEC);
            synchronized (atB) {
                b.store().removed(atB.id(), RemovalCause.INVALIDATED); // signed off at b
            }
            Thread.sleep(DatabaseSessionTransport.OWNERSHIP_CHECK_AFTER.toMillis() + 100);

            assertThat(a.store().copyStale(atA.id())).isTrue();
            assertThat(a.store().load(atA.id())).as("the signed-off session, looked up at a").isEmpty();
        }
    }

    @Test
    void aCopyStillThisNodesIsCheckedAtMostOncePerInterval() throws Exception {
        try (TwoNodes nodes = TwoNodes.start()) {
            DatabaseNode a = nodes.a();
            DatabaseNode b = nodes.b();
            ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
            Thread.sleep(DatabaseSessionTransport.OWNERSHIP_CHECK_AFTER.toMillis() + 100);
            assertThat(a.store().copyStale(atA.id())).as("checked: still a's").isFalse();

            b.store().load(atA.id()).orElseThrow(); // taken over right after the check

            assertThat(a.store().copyStale(atA.id())).as("not checked again within the interval").isFalse();
            assertThat(a.cache().evicted()).isEmpty();
        }
    }

    @Test
    void aStaleOwnerThatGivesTheSessionANewIdDoesNotPublishItsStaleCopyUnderIt() throws Exception {
        for (Trigger trigger : List.of(Trigger.ON_REQUEST_END, Trigger.ON_SET_ATTRIBUTE)) {
            try (TestDatabase database = new H2Database();
                 DatabaseNode a = DatabaseNode.start("a", database, TestGroup.settings(1, trigger, Scope.MODIFIED_ATTRIBUTES, SYNC));
                 DatabaseNode b = DatabaseNode.start("b", database, TestGroup.settings(1, trigger, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
                SessionRows rows = new SessionRows(database);
                ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
                String oldId = atA.id();
                b.store().load(oldId).orElseThrow(); // the balancer sent the user to b, a was only slow

                TestSession renamed = atA.session().renamed("renamed-" + System.nanoTime()); // a signs the user on
                synchronized (renamed) {
                    a.store().idChanged(oldId, renamed);
                    a.store().shuttingDown(renamed); // and stops
                }

                assertThat(rows.version(renamed.id())).as(trigger + ": a row of a's stale copy under the new id")
                        .isEqualTo(-1);
                assertThat(rows.owner(oldId)).as(trigger + ": the session at b").contains("b");
                assertThat(a.conflicts()).as(trigger + ": conflicts counted at a").isEqualTo(1);
                assertThat(a.cache().evicted()).as(trigger + ": a's cache told to evict").contains(renamed.id());
            }
        }
    }

    @Test
    void anOwnerThatGivesTheSessionANewIdMovesItsRowsToIt() throws Exception {
        for (Trigger trigger : List.of(Trigger.ON_REQUEST_END, Trigger.ON_SET_ATTRIBUTE)) {
            try (TestDatabase database = new H2Database();
                 DatabaseNode a = DatabaseNode.start("a", database, TestGroup.settings(1, trigger, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
                SessionRows rows = new SessionRows(database);
                ShopVisit atA = new ShopVisit(a.store()).request(Map.of("cart", "EST-1"));
                String oldId = atA.id();

                TestSession renamed = atA.session().renamed("renamed-" + System.nanoTime());
                synchronized (renamed) {
                    a.store().idChanged(oldId, renamed);
                    renamed.set("user", "alice");
                    a.store().attributeChanged(renamed, "user");
                    a.store().requestCompleted(renamed);
                }

                assertThat(rows.version(oldId)).as(trigger + ": the old id's row").isEqualTo(-1);
                assertThat(rows.owner(renamed.id())).as(trigger + ": the new id's row").contains("a");
                StoredSession loaded = a.store().load(renamed.id()).orElseThrow();
                assertThat(TestMember.CODEC.deserialize("cart", loaded.attributes().get("cart"))).isEqualTo("EST-1");
                assertThat(TestMember.CODEC.deserialize("user", loaded.attributes().get("user"))).isEqualTo("alice");
                assertThat(a.conflicts()).isZero();
            }
        }
    }

    @Test
    void underOnShutdownASessionGivenANewIdAfterATakeoverIsNeitherEvictedNorLeftUnderItsOldId() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_SHUTDOWN, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database, settings);
             DatabaseNode b = DatabaseNode.start("b", database, settings)) {
            SessionRows rows = new SessionRows(database);
            TestSession session = handedOverAtTheStopOf(a);
            TestSession atB = TestSession.continuing(b.store().load(session.id()).orElseThrow(), TestMember.CODEC);

            TestSession renamed = atB.renamed("renamed-" + System.nanoTime()); // the user signs on at b
            synchronized (renamed) {
                b.store().idChanged(session.id(), renamed);
                renamed.changeMaxInactive(300_000);
                b.store().requestCompleted(renamed);
            }

            assertThat(b.conflicts()).isZero();
            assertThat(b.cache().evicted()).doesNotContain(renamed.id());
            assertThat(rows.version(session.id())).as("the retired id's row").isEqualTo(-1);
            b.stopGracefully(List.of(renamed));
            assertThat(rows.owner(renamed.id())).as("handed over at b's stop").contains("b");
        }
    }

    @Test
    void underOnShutdownAStaleOwnerThatGivesTheSessionANewIdDoesNotHandItOverAtItsStop() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_SHUTDOWN, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database();
             DatabaseNode x = DatabaseNode.start("x", database, settings);
             DatabaseNode a = DatabaseNode.start("a", database, settings);
             DatabaseNode b = DatabaseNode.start("b", database, settings)) {
            SessionRows rows = new SessionRows(database);
            TestSession session = handedOverAtTheStopOf(x);
            TestSession atA = TestSession.continuing(a.store().load(session.id()).orElseThrow(), TestMember.CODEC);
            b.store().load(session.id()).orElseThrow(); // a was slow: the balancer sent the user to b

            TestSession renamed = atA.renamed("renamed-" + System.nanoTime()); // a request back at a signs on
            synchronized (renamed) {
                a.store().idChanged(session.id(), renamed);
            }
            a.stopGracefully(List.of(renamed));

            assertThat(rows.version(renamed.id())).as("a row of a's stale copy under the new id").isEqualTo(-1);
            assertThat(rows.owner(session.id())).as("the session at b").contains("b");
            assertThat(a.conflicts()).isEqualTo(1);
            assertThat(a.cache().evicted()).contains(renamed.id());
        }
    }

    @Test
    void aChangeQueuedBeforeANodeLostTheSessionDoesNotLandAfterItTookTheSessionBack() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            DatabaseSessionTransport b = nodes.transport("b");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();
            a.prepare(change(2, ChangeKind.DELTA, "EST-1"), false).send();
            Dispatch third = a.prepare(change(3, ChangeKind.DELTA, "a-3"), false); // a's lane is backed up
            Dispatch fourth = a.prepare(change(4, ChangeKind.DELTA, "a-4"), false);

            long atB = b.takeOver("s1", Duration.ofSeconds(1)).orElseThrow().version(); // a was slow, not dead
            b.prepare(change(atB + 1, ChangeKind.DELTA, "EST-2"), false).send();
            third.send(); // a learns it lost the session
            a.takeOver("s1", Duration.ofSeconds(1)).orElseThrow(); // and the user's next request comes back to a
            fourth.send();

            assertThat(fourth.applied()).as("a's change from before it lost the session").isCompletedExceptionally();
            assertThat(a.takeOver("s1", Duration.ofSeconds(1)).orElseThrow().attributes().get("cart"))
                    .isEqualTo("EST-2".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
    }

    @Test
    void changesQueuedUnderANewIdBeforeItsRowsMovedAreAllWritten() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();

            a.idChanging("s1", "s2"); // a sign-on, under asynchronous delivery: both writes wait in the lane
            a.prepareRemoval("s1", RemovalCause.INVALIDATED).send();
            Dispatch full = a.prepare(change("s2", 2, ChangeKind.FULL, "EST-1"), false);
            Dispatch delta = a.prepare(change("s2", 3, ChangeKind.DELTA, "EST-2"), false);
            full.send();
            delta.send();

            SessionRows rows = new SessionRows(nodes.database());
            assertThat(delta.applied()).as("the second write under the new id").isNotCompletedExceptionally();
            assertThat(rows.version("s2")).isEqualTo(3);
            assertThat(rows.version("s1")).isEqualTo(-1);
        }
    }

    @Test
    void aSecondChangeOfIdBeforeTheFirstWasWrittenMovesTheRowsToTheNewestId() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();

            a.idChanging("s1", "s2"); // two changes of id (sign-on, then a step-up) before the lane wrote either
            a.prepareRemoval("s1", RemovalCause.INVALIDATED).send();
            Dispatch underS2 = a.prepare(change("s2", 2, ChangeKind.FULL, "EST-1"), false);
            a.idChanging("s2", "s3");
            a.prepareRemoval("s2", RemovalCause.INVALIDATED).send();
            Dispatch underS3 = a.prepare(change("s3", 3, ChangeKind.FULL, "EST-2"), false);
            underS2.send();
            underS3.send();

            SessionRows rows = new SessionRows(nodes.database());
            assertThat(underS3.applied()).as("the write under the newest id").isNotCompletedExceptionally();
            assertThat(a.tracks("s3")).as("a still owns the session under its newest id").isTrue();
            assertThat(rows.version("s3")).isEqualTo(3);
            assertThat(rows.version("s1")).as("rows left under the first id").isEqualTo(-1);
            assertThat(rows.version("s2")).as("rows left under the second id").isEqualTo(-1);
        }
    }

    @Test
    void anInvalidationAfterAChangeOfIdWhoseWriteFailedDeletesTheRowsUnderTheOldId() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();

            a.idChanging("s1", "s2"); // a sign-on
            a.prepareRemoval("s1", RemovalCause.INVALIDATED).send();
            a.prepare(change("s2", 2, ChangeKind.FULL, "EST-1"), false).abandon(); // its write never reached the database
            a.prepareRemoval("s2", RemovalCause.INVALIDATED).send(); // the user signs off

            SessionRows rows = new SessionRows(nodes.database());
            assertThat(rows.version("s1")).as("the signed-off session's rows under its old id").isEqualTo(-1);
            assertThat(rows.version("s2")).isEqualTo(-1);
        }
    }

    @Test
    void aSignOffWhoseDeletionFailedIsRetriedWhoeverOwnsTheSessionThen() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            DatabaseSessionTransport b = nodes.transport("b");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();
            a.prepareRemoval("s1", RemovalCause.INVALIDATED).abandon(); // the sign-off's deletion never got there
            b.takeOver("s1", Duration.ofSeconds(1)).orElseThrow(); // meanwhile b loaded the session

            a.retryRemovals();

            assertThat(new SessionRows(nodes.database()).version("s1")).as("the signed-off session's row at b")
                    .isEqualTo(-1);
        }
    }

    @Test
    void anExpiryWhoseDeletionFailedIsRetriedOnlyOnThisNodesRows() throws Exception {
        try (HandBuiltTransports nodes = HandBuiltTransports.open()) {
            DatabaseSessionTransport a = nodes.transport("a");
            DatabaseSessionTransport b = nodes.transport("b");
            a.prepare(change(1, ChangeKind.FULL, "EST-1"), false).send();
            a.prepareRemoval("s1", RemovalCause.EXPIRED).abandon();
            b.takeOver("s1", Duration.ofSeconds(1)).orElseThrow();

            a.retryRemovals();

            assertThat(new SessionRows(nodes.database()).owner("s1")).as("the session b uses").contains("b");
        }
    }

    /** Nodes a and b on one new H2 database, replicating onRequestEnd, modified attributes, synchronously. */
    private record TwoNodes(TestDatabase database, DatabaseNode a, DatabaseNode b) implements AutoCloseable {

        static TwoNodes start() throws Exception {
            var settings = TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC);
            TestDatabase database = new H2Database();
            DatabaseNode a = null;
            try {
                a = DatabaseNode.start("a", database, settings);
                return new TwoNodes(database, a, DatabaseNode.start("b", database, settings));
            } catch (Exception | Error e) {
                if (a != null) {
                    a.close();
                }
                database.close();
                throw e;
            }
        }

        @Override
        public void close() {
            b.close();
            a.close();
            database.close();
        }
    }

    /** {@code node} loads the session (it claims the row) and a request there puts {@code cart} in it. */
    private static void takenOverAndChangedAt(DatabaseNode node, String id, String cart) throws Exception {
        TestSession session = TestSession.continuing(node.store().load(id).orElseThrow(), TestMember.CODEC);
        synchronized (session) {
            session.set("cart", cart);
            node.store().attributeChanged(session, "cart");
            node.store().requestCompleted(session);
        }
    }

    private static SessionChange change(long version, ChangeKind kind, String cart) {
        return change("s1", version, kind, cart);
    }

    private static SessionChange change(String id, long version, ChangeKind kind, String cart) {
        Instant now = Instant.now();
        return new SessionChange(id, version, kind, now, now, 60_000,
                Map.of("cart", cart.getBytes(java.nio.charset.StandardCharsets.UTF_8)), Set.of());
    }

    /** Transports of nodes built by hand on one H2 database, so a test decides when each write is sent. */
    private record HandBuiltTransports(TestDatabase database, HikariDataSource pool, SessionTables tables)
            implements AutoCloseable {

        static HandBuiltTransports open() throws Exception {
            TestDatabase database = new H2Database();
            HikariDataSource pool = new HikariDataSource();
            pool.setJdbcUrl(database.jdbcUrl());
            pool.setUsername("sa");
            return new HandBuiltTransports(database, pool, SessionTables.createOrCheck(pool, "cohort_"));
        }

        DatabaseSessionTransport transport(String node) {
            return new DatabaseSessionTransport(DatabaseNode.APP, new SessionWriter(pool, tables, DatabaseNode.APP, node, "h"),
                    new SessionLoader(pool, tables, DatabaseNode.APP, node, "h"), DatabaseNode.protocol(database),
                    TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT),
                    new ReplicationMetrics(new SimpleMeterRegistry(), DatabaseNode.APP), new RecordingCache(), () -> { });
        }

        @Override
        public void close() {
            pool.close();
            database.close();
        }
    }

    /** A session with a cart that {@code node} handed over at its graceful stop (a rolling restart), under onShutdown. */
    private static TestSession handedOverAtTheStopOf(DatabaseNode node) {
        TestSession session = new TestSession("rolling-" + System.nanoTime(), TestMember.CODEC);
        synchronized (session) {
            session.access(Instant.now()).maxInactive(600_000);
            session.set("cart", "EST-1");
        }
        node.stopGracefully(List.of(session));
        return session;
    }

}
