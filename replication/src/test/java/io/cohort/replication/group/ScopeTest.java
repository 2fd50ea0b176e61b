package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What one change carries under each scope, measured by the owner's counters. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ScopeTest {

    private static final int VALUE_SIZE = 400;

    @Test
    void modifiedAttributesSendsOnlyTheOneChangedAttributeOfFive() throws Exception {
        Measured m = changeOneOfFive(Scope.MODIFIED_ATTRIBUTES);

        assertThat(m.attributes()).isEqualTo(1);
        assertThat(m.bytes()).isBetween((long) VALUE_SIZE, (long) VALUE_SIZE * 2);
    }

    @Test
    void allAttributesSendsAllFiveEveryTime() throws Exception {
        Measured m = changeOneOfFive(Scope.ALL_ATTRIBUTES);

        assertThat(m.attributes()).isEqualTo(5);
        assertThat(m.bytes()).isGreaterThan((long) VALUE_SIZE * 5);
    }

    @Test
    void aValueThatFailsToSerializeForAFullCopyKeepsItsEarlierValueAtTheHolder() throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.ALL_ATTRIBUTES, new Delivery.Sync(Duration.ofSeconds(2))))) {
            List<TestMember> members = group.startMembers(2);
            TestMember holder = members.get(1);
            ShopVisit visit = new ShopVisit(members.get(0)).request(Map.of("cart", new FailsOnItsSecondWrite("EST-1"),
                    "user", "j2ee"));
            byte[] cart = holder.backup(visit.id()).orElseThrow().attributes().get("cart");

            visit.request(Map.of("user", "ACID")); // another request changes the cart while this copy is written

            assertThat(holder.backupVersion(visit.id())).isEqualTo(visit.version());
            assertThat(holder.backup(visit.id()).orElseThrow().attributes()).as("the holder's copy")
                    .containsKeys("cart", "user");
            assertThat(holder.backup(visit.id()).orElseThrow().attributes().get("cart")).isEqualTo(cart);
            assertThat(TestMember.CODEC.deserialize("user", holder.backup(visit.id()).orElseThrow().attributes().get("user")))
                    .isEqualTo("ACID");
        }
    }

    private record Measured(long attributes, long bytes) {
    }

    private Measured changeOneOfFive(Scope scope) throws Exception {
        try (TestGroup group = TestGroup.of(TestGroup.Transport.PEER,
                TestGroup.settings(1, Trigger.ON_REQUEST_END, scope, new Delivery.Sync(Duration.ofSeconds(2))))) {
            List<TestMember> members = group.startMembers(2);
            TestMember owner = members.get(0);
            TestMember holder = members.get(1);
            Map<String, Object> five = new LinkedHashMap<>();
            for (int i = 1; i <= 5; i++) {
                five.put("a" + i, "x".repeat(VALUE_SIZE - 10) + i);
            }
            ShopVisit visit = new ShopVisit(owner).request(five);
            double attributesBefore = owner.attributesSent();
            double bytesBefore = owner.bytesSent();

            visit.request(Map.of("a3", "y".repeat(VALUE_SIZE - 10)));

            assertThat(holder.backupVersion(visit.id())).isEqualTo(visit.version());
            assertThat(holder.backup(visit.id()).orElseThrow().attributes()).hasSize(5);
            assertThat(TestMember.CODEC.deserialize("a3", holder.backup(visit.id()).orElseThrow().attributes().get("a3")))
                    .isEqualTo("y".repeat(VALUE_SIZE - 10));
            return new Measured((long) (owner.attributesSent() - attributesBefore), (long) (owner.bytesSent() - bytesBefore));
        }
    }
}
