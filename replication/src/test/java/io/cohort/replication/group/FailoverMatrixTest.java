package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.group.TestGroup.Transport;
import io.cohort.session.StoredSession;
import io.cohort.session.serial.RejectedValueException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The failover scenario over the whole policy space (WildFly style): every transport × trigger ×
 * scope × delivery, write-quota 1, three members. A session built over several requests on member
 * a is served complete by member b after a is gone: crashed (no leave, connections cut) for the
 * continuous triggers, stopped gracefully for onShutdown, which must not have sent anything before.
 * Afterwards b, the new owner, has restored the write-quota on c.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailoverMatrixTest {

    static Stream<Arguments> policies() {
        List<Arguments> all = new ArrayList<>();
        for (Transport transport : Transport.values()) {
            for (Trigger trigger : Trigger.values()) {
                for (Scope scope : Scope.values()) {
                    all.add(Arguments.of(transport, Named.of(trigger.xmlName(), trigger), Named.of(scope.xmlName(), scope),
                            Named.of("async", Delivery.Async.DEFAULT)));
                    all.add(Arguments.of(transport, Named.of(trigger.xmlName(), trigger), Named.of(scope.xmlName(), scope),
                            Named.of("sync", new Delivery.Sync(Duration.ofSeconds(2)))));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} · {1} · {2} · {3}")
    @MethodSource("policies")
    void sessionOutlivesItsOwner(Transport transport, Trigger trigger, Scope scope, Delivery delivery) throws Exception {
        try (TestGroup group = TestGroup.of(transport, TestGroup.settings(1, trigger, scope, delivery))) {
            List<TestMember> members = group.startMembers(3);
            TestMember a = members.get(0);
            TestMember b = members.get(1);
            TestMember c = members.get(2);
            ShopVisit visit = new ShopVisit(a).browseAndFillCart();
            long version = visit.version();

            if (trigger == Trigger.ON_SHUTDOWN) {
                assertThat(a.changesSent()).as("changes sent before the shutdown").isZero();
                assertThat(a.bytesSent()).as("bytes sent before the shutdown").isZero();
                assertThat(b.backup(visit.id())).isEmpty();
                assertThat(c.backup(visit.id())).isEmpty();
                a.stopGracefully(List.of(visit.session()));
            } else {
                if (delivery instanceof Delivery.Sync) {
                    assertThat(Math.max(b.backupVersion(visit.id()), c.backupVersion(visit.id())))
                            .as("a holder applied the last change before the request returned").isEqualTo(version);
                } else {
                    Await.until("a holder has version " + version, () ->
                            Math.max(b.backupVersion(visit.id()), c.backupVersion(visit.id())) == version);
                }
                a.crash();
            }

            StoredSession served = b.store().load(visit.id()).orElseThrow(
                    () -> new AssertionError("b did not find the session of crashed a"));

            assertThat(served.version()).isGreaterThanOrEqualTo(version);
            assertThat(values(served)).isEqualTo(ShopVisit.expectedAfterBrowsing());
            if (trigger != Trigger.ON_SHUTDOWN) {
                Await.until("c holds a copy from the new owner b", () -> c.backupVersion(visit.id()) == served.version());
            }
        }
    }

    private static Map<String, Object> values(StoredSession session) throws RejectedValueException {
        Map<String, Object> values = new java.util.HashMap<>();
        for (var attribute : session.attributes().entrySet()) {
            values.put(attribute.getKey(), TestMember.CODEC.deserialize(attribute.getKey(), attribute.getValue()));
        }
        return values;
    }
}
