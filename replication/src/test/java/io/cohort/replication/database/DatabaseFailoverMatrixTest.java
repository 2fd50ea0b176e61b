package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.group.Await;
import io.cohort.replication.group.ShopVisit;
import io.cohort.replication.group.TestGroup;
import io.cohort.replication.group.TestMember;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.RejectedValueException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The failover scenario of {@code FailoverMatrixTest} over the database transport: every trigger ×
 * scope × delivery (write-quota 1, which the database ignores) on embedded H2, and one case on
 * PostgreSQL. A session built over several requests on node a is served complete by node b after a
 * stopped abruptly (continuous triggers) or gracefully (onShutdown, which must not have written
 * anything before).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DatabaseFailoverMatrixTest {

    static Stream<Arguments> policies() {
        List<Arguments> all = new ArrayList<>();
        Named<Supplier<TestDatabase>> h2 = Named.of("database", H2Database::new);
        for (Trigger trigger : Trigger.values()) {
            for (Scope scope : Scope.values()) {
                all.add(Arguments.of(h2, Named.of(trigger.xmlName(), trigger), Named.of(scope.xmlName(), scope),
                        Named.of("async", Delivery.Async.DEFAULT)));
                all.add(Arguments.of(h2, Named.of(trigger.xmlName(), trigger), Named.of(scope.xmlName(), scope),
                        Named.of("sync", new Delivery.Sync(Duration.ofSeconds(2)))));
            }
        }
        Named<Supplier<TestDatabase>> postgres = Named.of("database (PostgreSQL)", PostgresDatabase::open);
        all.add(Arguments.of(postgres, Named.of(Trigger.ON_REQUEST_END.xmlName(), Trigger.ON_REQUEST_END),
                Named.of(Scope.MODIFIED_ATTRIBUTES.xmlName(), Scope.MODIFIED_ATTRIBUTES),
                Named.of("async", Delivery.Async.DEFAULT)));
        return all.stream();
    }

    @ParameterizedTest(name = "{0} · {1} · {2} · {3}")
    @MethodSource("policies")
    void sessionOutlivesItsOwner(Supplier<TestDatabase> databases, Trigger trigger, Scope scope, Delivery delivery)
            throws Exception {
        try (TestDatabase database = databases.get();
             DatabaseNode a = DatabaseNode.start("a", database, TestGroup.settings(1, trigger, scope, delivery));
             DatabaseNode b = DatabaseNode.start("b", database, TestGroup.settings(1, trigger, scope, delivery))) {
            SessionRows rows = new SessionRows(database);
            ShopVisit visit = new ShopVisit(a.store()).browseAndFillCart();
            long version = visit.version();

            if (trigger == Trigger.ON_SHUTDOWN) {
                assertThat(a.changesSent()).as("changes written before the shutdown").isZero();
                assertThat(a.bytesSent()).as("bytes written before the shutdown").isZero();
                assertThat(rows.version(visit.id())).as("no session row before the shutdown").isEqualTo(-1);
                a.stopGracefully(List.of(visit.session()));
            } else {
                if (delivery instanceof Delivery.Sync) {
                    assertThat(rows.version(visit.id())).as("committed before the request returned").isEqualTo(version);
                } else {
                    Await.until("the database has version " + version, () -> rows.version(visit.id()) == version);
                }
                a.crash();
            }

            assertThat(b.bytesReceived()).as("b read nothing before taking over").isZero();
            StoredSession served = b.store().load(visit.id()).orElseThrow(
                    () -> new AssertionError("b did not find the session of stopped a"));
            long attributeBytes = served.attributes().values().stream().mapToLong(v -> v.length).sum();
            assertThat(b.bytesReceived()).as("the session b read from the database")
                    .isGreaterThan((double) attributeBytes);

            assertThat(served.version()).isGreaterThanOrEqualTo(version);
            assertThat(values(served)).isEqualTo(ShopVisit.expectedAfterBrowsing());
            assertThat(rows.owner(visit.id())).as("b owns the session now").contains("b");
        }
    }

    private static Map<String, Object> values(StoredSession session) throws RejectedValueException {
        Map<String, Object> values = new HashMap<>();
        for (var attribute : session.attributes().entrySet()) {
            values.put(attribute.getKey(), TestMember.CODEC.deserialize(attribute.getKey(), attribute.getValue()));
        }
        return values;
    }
}
