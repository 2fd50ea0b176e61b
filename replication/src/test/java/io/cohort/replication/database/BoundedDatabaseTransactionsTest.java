package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.zaxxer.hikari.HikariDataSource;
import io.cohort.config.Delivery;
import io.cohort.config.ReplicationSettings;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.database.DatabaseWrite.Removal;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import io.cohort.session.contract.TestSession;
import java.net.URI;
import java.sql.Connection;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A database that stops answering, or a pool with no free connection, holds a request no longer than
 * the synchronous timeout (plus the network grace and the pool's validation), for writes and for
 * loads alike. Before these bounds, a stalled PostgreSQL connection held the request thread in a
 * socket read for good, and a full pool held it for the pool's whole connection timeout.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedDatabaseTransactionsTest {

    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(1);
    /** Far above timeout + grace + validation (about 3 s), far below "for good". */
    private static final Duration BOUND = Duration.ofSeconds(15);
    private static final ReplicationSettings SYNC = TestGroup.settings(1, Trigger.ON_REQUEST_END,
            Scope.MODIFIED_ATTRIBUTES, new Delivery.Sync(SYNC_TIMEOUT));

    @Test
    void aSynchronousWriteToADatabaseThatStoppedAnsweringEndsAndCountsATimeout() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open(); StallingRelay relay = relayTo(database);
             DatabaseNode a = DatabaseNode.start("a", new Relayed(database, relay), SYNC)) {
            SessionRows rows = new SessionRows(database);
            TestSession session = new TestSession("stall-" + System.nanoTime(), TestMember.CODEC);
            synchronized (session) {
                session.access(Instant.now()).maxInactive(60_000);
                session.set("cart", "EST-1");
                a.store().requestCompleted(session);
            }
            assertThat(rows.version(session.id())).isEqualTo(1);
            relay.stall();

            assertTimeoutPreemptively(BOUND, () -> {
                synchronized (session) {
                    session.set("cart", "EST-2");
                    a.store().requestCompleted(session);
                }
            }, "the request stayed in the database write");

            assertThat(a.counter(ReplicationMetrics.SYNC_TIMEOUTS)).isEqualTo(1);
            assertThat(rows.version(session.id())).as("nothing of the change reached the database").isEqualTo(1);
        }
    }

    @Test
    void loadingASessionFromADatabaseThatStoppedAnsweringEndsWithoutTheSession() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open(); StallingRelay relay = relayTo(database);
             DatabaseNode a = DatabaseNode.start("a", database, SYNC);
             DatabaseNode b = DatabaseNode.start("b", new Relayed(database, relay), SYNC)) {
            TestSession session = new TestSession("load-" + System.nanoTime(), TestMember.CODEC);
            synchronized (session) {
                session.access(Instant.now()).maxInactive(60_000);
                session.set("cart", "EST-1");
                a.store().requestCompleted(session);
            }
            relay.stall();

            Optional<?> loaded = assertTimeoutPreemptively(BOUND, () -> b.store().load(session.id()),
                    "the request stayed in the database read");

            assertThat(loaded).isEmpty();
            // Jetty asks whether an id is in use, on the request thread, when a request with a stale cookie starts one
            boolean exists = assertTimeoutPreemptively(BOUND, () -> b.store().exists(session.id()),
                    "the request stayed in the database's existence check");
            assertThat(exists).as("unknown while the database does not answer").isFalse();
        }
    }

    @Test
    void aGracefulStopWithTheDatabaseNotAnsweringEndsWithinItsStopTimeout() throws Exception {
        ReplicationSettings onShutdown = TestGroup.settings(1, Trigger.ON_SHUTDOWN, Scope.MODIFIED_ATTRIBUTES,
                new Delivery.Sync(SYNC_TIMEOUT));
        Duration stopTimeout = Duration.ofSeconds(2);
        try (PostgresDatabase database = PostgresDatabase.open(); StallingRelay relay = relayTo(database)) {
            DatabaseNode a = DatabaseNode.start("a", new Relayed(database, relay), onShutdown, Duration.ofMinutes(1),
                    stopTimeout);
            List<TestSession> owned = new java.util.ArrayList<>();
            for (int i = 0; i < 12; i++) {
                TestSession session = new TestSession("stop-" + i + "-" + System.nanoTime(), TestMember.CODEC);
                synchronized (session) {
                    session.access(Instant.now()).maxInactive(600_000);
                    session.set("cart", "EST-" + i);
                    a.store().created(session);
                    a.store().requestCompleted(session);
                }
                owned.add(session);
            }
            relay.stall();

            long start = System.nanoTime();
            a.stopGracefully(owned);
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            // each session's write waits up to the synchronous timeout: one after another on the stopping thread they
            // held the stop about 17 s, whatever its stopTimeout
            assertThat(took).as("the stop, with a stopTimeout of %s", stopTimeout).isLessThan(Duration.ofSeconds(8));
        }
    }

    @Test
    void aWriteWaitsForAPooledConnectionNoLongerThanItsBudget() throws Exception {
        try (TestDatabase database = new H2Database(); HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(database.jdbcUrl());
            pool.setUsername("sa");
            pool.setMaximumPoolSize(1);
            pool.setConnectionTimeout(Duration.ofSeconds(60).toMillis());
            SessionTables tables = SessionTables.createOrCheck(pool, "cohort_");
            SessionWriter writer = new SessionWriter(pool, tables, DatabaseNode.APP, "a", "h");

            try (Connection busy = pool.getConnection()) { // the pool's only connection, in use elsewhere
                assertThatThrownBy(() -> assertTimeoutPreemptively(BOUND,
                        () -> writer.writeAll(List.of(new Removal("s1", Removal.Reach.OWN_ROWS)), TransactionDeadline.after(SYNC_TIMEOUT)),
                        "the write waited for the pool's connection timeout"))
                        .isInstanceOf(SQLTransientConnectionException.class);
            }
        }
    }

    private static StallingRelay relayTo(PostgresDatabase database) throws Exception {
        URI server = URI.create(database.jdbcUrl().substring("jdbc:".length()));
        return new StallingRelay(server.getHost(), server.getPort());
    }

    /** The database, reached through the relay. */
    private record Relayed(PostgresDatabase database, StallingRelay relay) implements TestDatabase {

        @Override
        public String jdbcUrl() {
            URI server = URI.create(database.jdbcUrl().substring("jdbc:".length()));
            return database.jdbcUrl().replace(server.getHost() + ":" + server.getPort(), "127.0.0.1:" + relay.port());
        }

        @Override
        public Optional<String> user() {
            return database.user();
        }

        @Override
        public Optional<String> password() {
            return database.password();
        }

        @Override
        public String description() {
            return database.description() + " through a relay";
        }

        @Override
        public void close() {
        }
    }
}
