package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.cohort.config.DatabaseProtocol;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ChangeKind;
import io.cohort.replication.engine.Dispatch;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.engine.SessionChange;
import io.cohort.replication.group.Await;
import io.cohort.replication.group.RecordingCache;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import io.cohort.session.RemovalCause;
import io.cohort.session.StoredSession;
import io.cohort.session.contract.TestSession;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How long a session's rows live: as long as the session is in use somewhere (under every trigger), not
 * after it was removed (even when the deletion failed at first), and never as a part of a session.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatabaseSessionLifetimeTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(1));
    private static final ReplicationSettings REQUEST_END = TestGroup.settings(1, Trigger.ON_REQUEST_END,
            Scope.MODIFIED_ATTRIBUTES, SYNC);

    @Test
    void onShutdownASessionInUseOnTheNodeThatLoadedItIsNotSweptAndIsHandedOverAtItsStop() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_SHUTDOWN, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database()) {
            SessionRows rows = new SessionRows(database);
            DatabaseNode a = DatabaseNode.start("a", database, settings);
            DatabaseNode b = DatabaseNode.start("b", database, settings);
            TestSession session = new TestSession("rolling-" + System.nanoTime(), TestMember.CODEC);
            synchronized (session) {
                session.access(Instant.now()).maxInactive(2_000);
                session.set("cart", "EST-1");
            }
            a.stopGracefully(List.of(session)); // a rolling restart: a hands the session over
            assertThat(rows.version(session.id())).isEqualTo(1);
            assertThat(b.store().load(session.id())).as("the user's next request reaches b").isPresent();

            for (int i = 0; i < 25; i++) { // 5 s of use on b: past the sweeper's 2 × 2 s
                Thread.sleep(200);
                synchronized (session) {
                    session.access(Instant.now());
                    b.store().requestCompleted(session);
                }
            }
            assertThat(rows.version(session.id())).as("the row of a session in use is not swept").isEqualTo(1);
            synchronized (session) {
                session.set("cart", "EST-2");
            }
            b.stopGracefully(List.of(session)); // the next rolling restart

            assertThat(rows.version(session.id())).as("handed over by b").isEqualTo(2);
            assertThat(b.conflicts()).isZero();
        }
    }

    @Test
    void aCopyWhoseLastAccessLagsTheOwnersByLessThanATouchIntervalIsStillLoaded() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database();
             DatabaseNode b = DatabaseNode.start("b", database, settings)) {
            DatabaseNode a = DatabaseNode.start("a", database, settings);
            Instant now = Instant.now();
            TestSession session = new TestSession("lag-" + System.nanoTime(), TestMember.CODEC);
            synchronized (session) {
                session.access(now.minusMillis(20_500)).maxInactive(20_000);
                session.set("cart", "EST-1");
                a.store().requestCompleted(session); // the row's last access: 20.5 s ago, past the interval
                session.access(now.minusMillis(19_000)); // within a tenth of the interval: no touch is written
                a.store().requestCompleted(session);
            }
            a.crash();

            Optional<StoredSession> loaded = b.store().load(session.id());

            assertThat(loaded).as("1 s left at the owner's last access: the node taking over decides").isPresent();
        }
    }

    @Test
    void aRowThatExpiredBeyondDoubtDoesNotKeepItsIdInUse() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode b = DatabaseNode.start("b", database, REQUEST_END)) {
            DatabaseNode a = DatabaseNode.start("a", database, REQUEST_END);
            Instant now = Instant.now();
            // 1.3 × the interval since the last access: expired beyond doubt, not swept before 2 ×
            TestSession expired = writtenBy(a, "gone-", now.minusMillis(26_000), 20_000);
            TestSession live = writtenBy(a, "live-", now.minusMillis(19_000), 20_000);
            a.crash();

            assertThat(b.store().load(expired.id())).as("refused as expired beyond doubt").isEmpty();
            assertThat(b.store().exists(expired.id()))
                    .as("so its id is not in use: a new session under it could never write the row").isFalse();
            assertThat(b.store().exists(live.id())).isTrue();
        }
    }

    @Test
    void aRowOfAnOwnerThatDiedGoesToOneNodeToEndOnceAnOwnerWouldSurelyHaveEndedItItself() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode b = DatabaseNode.start("b", database, REQUEST_END);
             DatabaseNode c = DatabaseNode.start("c", database, REQUEST_END)) {
            SessionRows rows = new SessionRows(database);
            DatabaseNode a = DatabaseNode.start("a", database, REQUEST_END);
            Instant now = Instant.now();
            // 5-minute sessions: this one has gone untouched for 11 minutes, twice its interval and more, and a live
            // owner's sweep (once a minute) would have ended it by 5.5 minutes after its last access (the row's may lag
            // by 30 s); the database's sweeper deletes it a minute from now (12 minutes after), silently
            TestSession abandoned = writtenBy(a, "abandoned-", now.minusSeconds(660), 300_000);
            // expired beyond doubt (6 minutes and 15 s after its last access), but not yet untouched for twice its
            // interval: still its owner's, were it alive, whose request may still hold it
            TestSession recent = writtenBy(a, "recent-", now.minusSeconds(450), 300_000);
            // a 10-minute session untouched for 16 minutes: its owner would have ended it by 11 minutes after its last
            // access, unless a request still holds it (an event stream is not touched): left until twice its interval
            TestSession held = writtenBy(a, "held-", now.minusSeconds(960), 600_000);
            a.crash();

            assertThat(b.store().expiredOrphans(now)).containsExactly(abandoned.id());
            assertThat(c.store().expiredOrphans(now)).containsExactly(abandoned.id());
            Optional<StoredSession> atB = b.store().load(abandoned.id());
            Optional<StoredSession> atC = c.store().load(abandoned.id());

            assertThat(atB).as("b's sweep gets it, to end through the application").isPresent();
            assertThat(TestMember.CODEC.deserialize("cart", atB.get().attributes().get("cart"))).isEqualTo("EST-1");
            assertThat(atC).as("c's, a moment later, does not: the application hears of the end once").isEmpty();
            assertThat(rows.owner(abandoned.id())).as("its rows are gone").isEmpty();
            assertThat(rows.attributeRowCount(abandoned.id())).isZero();
            assertThat(c.store().load(recent.id())).as("the recent one is refused, and its row kept").isEmpty();
            assertThat(c.store().loadToEnd(recent.id())).isEmpty();
            assertThat(c.store().loadToEnd(held.id())).as("not untouched for twice its interval yet").isEmpty();
            assertThat(rows.owner(held.id())).contains("a");
            assertThat(rows.owner(recent.id())).contains("a");
            TestSession live = writtenBy(b, "live-", Instant.now(), 300_000);
            assertThat(c.store().loadToEnd(live.id())).as("a sweep takes no live session").isEmpty();
            assertThat(rows.owner(live.id())).contains("b");
        }
    }

    /** A session with a cart, last accessed at {@code accessed}, that {@code owner} wrote to the database. */
    private static TestSession writtenBy(DatabaseNode owner, String idPrefix, Instant accessed, long maxInactiveMillis) {
        TestSession session = new TestSession(idPrefix + System.nanoTime(), TestMember.CODEC);
        synchronized (session) {
            session.access(accessed).maxInactive(maxInactiveMillis);
            session.set("cart", "EST-1");
            owner.store().requestCompleted(session);
        }
        return session;
    }

    @Test
    void onShutdownASessionMadeNeverExpiringOnTheNodeThatLoadedItIsNotSweptAndIsHandedOverAtItsStop() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_SHUTDOWN, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database()) {
            SessionRows rows = new SessionRows(database);
            DatabaseNode a = DatabaseNode.start("a", database, settings);
            DatabaseNode b = DatabaseNode.start("b", database, settings);
            TestSession session = new TestSession("forever-" + System.nanoTime(), TestMember.CODEC);
            synchronized (session) {
                session.access(Instant.now()).maxInactive(1_000);
                session.set("cart", "EST-1");
            }
            a.stopGracefully(List.of(session)); // a rolling restart: a hands the session over
            assertThat(b.store().load(session.id())).as("the user's next request reaches b").isPresent();
            synchronized (session) { // the application makes it never expire ("remember me")
                session.access(Instant.now()).maxInactive(-1);
                b.store().requestCompleted(session);
            }

            Thread.sleep(3_000); // past the sweeper's 2 × 1 s of the interval the row was written with
            assertThat(rows.version(session.id())).as("the row of a never-expiring session in use is not swept")
                    .isEqualTo(1);
            synchronized (session) {
                session.set("cart", "EST-2");
            }
            b.stopGracefully(List.of(session)); // the next rolling restart

            assertThat(rows.version(session.id())).as("handed over by b").isEqualTo(2);
            DatabaseNode c = DatabaseNode.start("c", database, settings);
            try {
                StoredSession loaded = c.store().load(session.id()).orElseThrow();
                assertThat(loaded.maxInactiveMillis()).as("still never expires").isLessThanOrEqualTo(0);
            } finally {
                c.close();
            }
        }
    }

    @Test
    void aRemovalWhoseDeletionFailedIsRetriedSoOtherNodesCannotLoadTheSessionAgain() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database, settings);
             DatabaseNode b = DatabaseNode.start("b", database, settings)) {
            SessionRows rows = new SessionRows(database);
            TestSession session = signOffWhileTheRowIsLocked(database, a, "logout-"); // the sign-off's deletion failed
            assertThat(a.store().load(session.id())).as("the node that removed it never loads it").isEmpty();

            Await.until("the deletion is retried", Duration.ofSeconds(10), () -> rows.version(session.id()) == -1);
            assertThat(b.store().load(session.id())).as("an invalidated session does not come back").isEmpty();
        }
    }

    @Test
    void aRemovalStillPendingWhenTheApplicationStopsIsTriedOnceMore() throws Exception {
        var settings = TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC);
        try (TestDatabase database = new H2Database()) {
            DatabaseNode a = DatabaseNode.start("a", database, settings, Duration.ofHours(1)); // no sweep in this test
            SessionRows rows = new SessionRows(database);
            TestSession session = signOffWhileTheRowIsLocked(database, a, "stop-");
            assertThat(rows.version(session.id())).as("the deletion failed").isEqualTo(1);

            a.close(); // a redeploy or a rolling restart right after the sign-off

            assertThat(rows.version(session.id())).as("deleted as the application stopped").isEqualTo(-1);
        }
    }

    @Test
    void removalsLeftPendingByAnOutageAreRetriedABatchPerTransactionSoTheyDrain() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open(); HikariDataSource pool = pool(database)) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            DatabaseSessionTransport transport = transportWithBatchSize10(database, pool, meters);
            List<String> ids = writeAndLoseTheirRemovals(transport, 35);
            try (Connection admin = database.connect(); var ddl = admin.createStatement()) {
                // every deleted session row is recorded with the transaction that deleted it
                ddl.execute("CREATE TABLE deletions (id varchar(200), tx bigint)");
                ddl.execute("""
                        CREATE FUNCTION record_deletion() RETURNS trigger AS $$
                        BEGIN INSERT INTO deletions VALUES (OLD.id, txid_current()); RETURN OLD; END $$ LANGUAGE plpgsql""");
                ddl.execute("CREATE TRIGGER record_deletion AFTER DELETE ON cohort_sessions FOR EACH ROW "
                        + "EXECUTE FUNCTION record_deletion()");
            }

            transport.retryRemovals();

            SessionRows rows = new SessionRows(database);
            assertThat(ids).allSatisfy(id -> assertThat(rows.version(id)).as(id).isEqualTo(-1));
            try (Connection admin = database.connect(); var query = admin.createStatement();
                 var perTransaction = query.executeQuery("SELECT count(*) FROM deletions GROUP BY tx ORDER BY 1 DESC")) {
                List<Integer> sizes = new java.util.ArrayList<>();
                while (perTransaction.next()) {
                    sizes.add(perTransaction.getInt(1));
                }
                assertThat(sizes).as("deletions per transaction").containsExactly(10, 10, 10, 5);
            }
        }
    }

    @Test
    void aRetryRoundOfPendingRemovalsEndsAtTheFirstBatchTheDatabaseTookNoneOf() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open(); HikariDataSource pool = pool(database)) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            DatabaseSessionTransport transport = transportWithBatchSize10(database, pool, meters);
            writeAndLoseTheirRemovals(transport, 35);
            try (Connection admin = database.connect(); var ddl = admin.createStatement()) {
                ddl.execute("ALTER TABLE cohort_sessions RENAME TO cohort_sessions_away"); // every deletion fails
            }

            transport.retryRemovals();

            assertThat(meters.counter(ReplicationMetrics.FAILURES, "app", DatabaseNode.APP).count())
                    .as("deletions tried (and failed) in the round").isEqualTo(10);
        }
    }

    private static HikariDataSource pool(TestDatabase database) {
        HikariDataSource pool = new HikariDataSource();
        pool.setJdbcUrl(database.jdbcUrl());
        database.user().ifPresent(pool::setUsername);
        database.password().ifPresent(pool::setPassword);
        return pool;
    }

    private static DatabaseSessionTransport transportWithBatchSize10(TestDatabase database, HikariDataSource pool,
            SimpleMeterRegistry meters) throws Exception {
        SessionTables tables = SessionTables.createOrCheck(pool, "cohort_");
        DatabaseProtocol protocol = new DatabaseProtocol(DatabaseNode.protocol(database).connection(), "cohort_", 10,
                Duration.ofMillis(20));
        return new DatabaseSessionTransport(DatabaseNode.APP, new SessionWriter(pool, tables, DatabaseNode.APP, "a", "h"),
                new SessionLoader(pool, tables, DatabaseNode.APP, "a", "h"), protocol, REQUEST_END,
                new ReplicationMetrics(meters, DatabaseNode.APP), new RecordingCache(), () -> { });
    }

    /** Writes {@code count} sessions, then removes them during an outage: each deletion is dropped from the queue. */
    private static List<String> writeAndLoseTheirRemovals(DatabaseSessionTransport transport, int count) {
        List<String> ids = new java.util.ArrayList<>();
        Instant now = Instant.now();
        for (int i = 0; i < count; i++) {
            String id = "outage-" + i;
            ids.add(id);
            transport.prepare(new SessionChange(id, 1, ChangeKind.FULL, now, now, 60_000,
                    Map.of("user", new byte[] {1}), Set.of()), false).send();
        }
        for (String id : ids) {
            transport.abandoned((DatabaseDispatch) transport.prepareRemoval(id, RemovalCause.INVALIDATED));
        }
        return ids;
    }

    /**
     * A session written by {@code node}, then signed off while another connection holds its row locked, so the
     * deletion fails (its statement times out); the lock is released before this returns.
     */
    private static TestSession signOffWhileTheRowIsLocked(TestDatabase database, DatabaseNode node, String prefix)
            throws Exception {
        TestSession session = new TestSession(prefix + System.nanoTime(), TestMember.CODEC);
        synchronized (session) {
            session.set("user", "alice");
            node.store().requestCompleted(session);
        }
        try (Connection lock = database.connect()) {
            lock.setAutoCommit(false);
            try (PreparedStatement select = lock.prepareStatement("SELECT * FROM cohort_sessions WHERE id = ? FOR UPDATE")) {
                select.setString(1, session.id());
                select.executeQuery().close();
            }
            node.store().removed(session.id(), RemovalCause.INVALIDATED);
            lock.rollback();
        }
        return session;
    }

    @Test
    void aDeltaWhoseFullCopyDidNotArriveDoesNotCreateTheRowAsThoughItWereTheWholeSession() throws Exception {
        try (TestDatabase database = new H2Database(); HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(database.jdbcUrl());
            pool.setUsername("sa");
            SessionTables tables = SessionTables.createOrCheck(pool, "cohort_");
            DatabaseSessionTransport transport = new DatabaseSessionTransport(DatabaseNode.APP,
                    new SessionWriter(pool, tables, DatabaseNode.APP, "a", "h"),
                    new SessionLoader(pool, tables, DatabaseNode.APP, "a", "h"), DatabaseNode.protocol(database),
                    TestGroup.settings(1, Trigger.ON_SET_ATTRIBUTE, Scope.MODIFIED_ATTRIBUTES, Delivery.Async.DEFAULT),
                    new ReplicationMetrics(new SimpleMeterRegistry(), DatabaseNode.APP), new RecordingCache(), () -> { });
            Instant now = Instant.now();
            transport.prepare(new SessionChange("s1", 1, ChangeKind.FULL, now, now, 60_000,
                    Map.of("user", new byte[] {1}, "cart", new byte[] {2}), Set.of()), false); // its write fails or is dropped
            Dispatch delta = transport.prepare(new SessionChange("s1", 2, ChangeKind.DELTA, now, now, 60_000,
                    Map.of("step", new byte[] {3}), Set.of()), false);

            delta.send();

            assertThat(new SessionRows(database).version("s1")).as("no row holding only the delta").isEqualTo(-1);
            assertThat(delta.applied()).isCompletedExceptionally();
            assertThat(transport.tracks("s1")).as("the next change is a full copy").isFalse();
        }
    }
}
