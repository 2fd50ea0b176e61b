package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.group.Await;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import io.cohort.session.contract.TestSession;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Rows of sessions nobody touched for twice their inactive interval are swept by any node, once the nodes serving
 * their application had two minutes to end them through it.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ExpiredSessionSweeperTest {

    @Test
    void longExpiredSessionsAreSweptAndLiveOnesStay() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database, TestGroup.settings(1, Trigger.ON_SET_ATTRIBUTE,
                     Scope.MODIFIED_ATTRIBUTES, new Delivery.Sync(Duration.ofSeconds(2))))) {
            SessionRows rows = new SessionRows(database);
            TestSession abandoned = write(a, "abandoned", Instant.now().minusSeconds(600), 2_000);
            TestSession recentlyExpired = write(a, "recent", Instant.now().minusSeconds(15), 10_000); // twice in 5 s
            // a node may end it through the application since 54 s (4 minutes and 6 s after its last access): the
            // sweeper leaves it to them for two minutes
            TestSession endable = write(a, "endable", Instant.now().minusSeconds(300), 60_000);
            TestSession live = write(a, "live", Instant.now(), 60_000);
            assertThat(rows.version(abandoned.id())).isPositive();

            Await.until("the abandoned session is swept", () -> rows.version(abandoned.id()) == -1);

            assertThat(rows.attributeRowCount(abandoned.id())).isZero();
            assertThat(rows.version(recentlyExpired.id())).as("expired, but not yet twice").isPositive();
            assertThat(rows.version(endable.id())).as("left to the nodes to end for two minutes").isPositive();
            assertThat(rows.version(live.id())).isPositive();
        }
    }

    @Test
    void aSweepThatMeetsARowLockedForGoodGivesUpAtItsStatementTimeout() throws Exception {
        try (PostgresDatabase database = PostgresDatabase.open(); HikariDataSource pool = new HikariDataSource()) {
            pool.setJdbcUrl(database.jdbcUrl());
            database.user().ifPresent(pool::setUsername);
            database.password().ifPresent(pool::setPassword);
            SessionTables tables = SessionTables.createOrCheck(pool, "sweep_");
            long longAgo = System.currentTimeMillis() - 600_000;
            try (Connection setup = database.connect(); Statement insert = setup.createStatement()) {
                insert.execute("INSERT INTO " + tables.sessions() + " (app, id, version, owner_node, host, created, "
                        + "last_accessed, max_inactive_ms, expiry) VALUES ('shop', 'abandoned', 1, 'gone', 'h', "
                        + longAgo + ", " + longAgo + ", 1000, " + (longAgo + 1000) + ")");
            }
            try (Connection stuck = database.connect()) { // a transaction that holds the row and never ends
                stuck.setAutoCommit(false);
                try (Statement lock = stuck.createStatement()) {
                    lock.executeQuery("SELECT id FROM " + tables.sessions() + " FOR UPDATE").close();
                }
                ExpiredSessionSweeper sweeper = new ExpiredSessionSweeper(pool, tables, 10, Duration.ofSeconds(1));

                CompletableFuture<Integer> sweep = CompletableFuture.supplyAsync(() -> {
                    try {
                        return sweeper.sweep(Instant.now());
                    } catch (SQLException e) {
                        throw new CompletionException(e);
                    }
                });

                assertThatThrownBy(() -> sweep.get(15, TimeUnit.SECONDS)).as("gave up rather than waiting for ever")
                        .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(SQLException.class);
                stuck.rollback();
            }
            assertThat(new ExpiredSessionSweeper(pool, tables, 10, Duration.ofSeconds(1)).sweep(Instant.now()))
                    .as("swept once the lock is gone").isOne();
        }
    }

    private static TestSession write(DatabaseNode node, String value, Instant lastAccessed, long maxInactive) {
        TestSession session = new TestSession(value + "-" + System.nanoTime(), TestMember.CODEC);
        synchronized (session) {
            session.access(lastAccessed).maxInactive(maxInactive);
            node.store().created(session);
            session.set("value", value);
            node.store().attributeChanged(session, "value");
        }
        return session;
    }
}
