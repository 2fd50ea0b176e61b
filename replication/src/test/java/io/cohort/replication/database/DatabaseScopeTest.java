package io.cohort.replication.database;

import static org.assertj.core.api.Assertions.assertThat;

import io.cohort.config.Delivery;
import io.cohort.config.Scope;
import io.cohort.config.Trigger;
import io.cohort.replication.engine.ReplicationMetrics;
import io.cohort.replication.group.FailsOnItsSecondWrite;
import io.cohort.replication.group.ShopVisit;
import io.cohort.replication.group.TestGroup;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Scope on the database: each attribute row records the session version that last wrote it, so the
 * tables show which rows a change touched.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DatabaseScopeTest {

    private static final Delivery SYNC = new Delivery.Sync(Duration.ofSeconds(2));

    @Test
    void modifiedAttributesRewritesOnlyTheChangedAttributeRows() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database,
                     TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            ShopVisit visit = new ShopVisit(a.store())
                    .request(Map.of("account", new ShopVisit.Account("j2ee", "John"), "search", "fish"));
            double attributesBefore = a.counter(ReplicationMetrics.ATTRIBUTES, "direction", ReplicationMetrics.SENT);

            visit.request(Map.of("cart", "EST-1"));

            assertThat(new SessionRows(database).attributeVersions(visit.id()))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("account", 1L, "search", 1L, "cart", 2L));
            assertThat(new SessionRows(database).version(visit.id())).isEqualTo(2);
            assertThat(a.counter(ReplicationMetrics.ATTRIBUTES, "direction", ReplicationMetrics.SENT) - attributesBefore)
                    .as("attributes written by the second request").isEqualTo(1);
        }
    }

    @Test
    void modifiedAttributesDeletesTheRowOfARemovedAttribute() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database,
                     TestGroup.settings(1, Trigger.ON_SET_ATTRIBUTE, Scope.MODIFIED_ATTRIBUTES, SYNC))) {
            ShopVisit visit = new ShopVisit(a.store()).request(Map.of("search", "fish", "item", "EST-1"));
            java.util.HashMap<String, Object> remove = new java.util.HashMap<>();
            remove.put("search", null);

            visit.request(remove);

            assertThat(new SessionRows(database).attributeVersions(visit.id())).containsOnlyKeys("item");
        }
    }

    @Test
    void aValueThatFailsToSerializeForAFullCopyKeepsTheRowWrittenBefore() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database,
                     TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.ALL_ATTRIBUTES, SYNC))) {
            ShopVisit visit = new ShopVisit(a.store())
                    .request(Map.of("cart", new FailsOnItsSecondWrite("EST-1"), "search", "fish"));

            visit.request(Map.of("search", "dogs")); // another request changes the cart while this copy is written

            assertThat(new SessionRows(database).attributeVersions(visit.id()))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("cart", 1L, "search", 2L));
            assertThat(a.store().load(visit.id()).orElseThrow().attributes()).containsKeys("cart", "search");
        }
    }

    @Test
    void allAttributesRewritesEveryAttributeRow() throws Exception {
        try (TestDatabase database = new H2Database();
             DatabaseNode a = DatabaseNode.start("a", database,
                     TestGroup.settings(1, Trigger.ON_REQUEST_END, Scope.ALL_ATTRIBUTES, SYNC))) {
            ShopVisit visit = new ShopVisit(a.store())
                    .request(Map.of("account", new ShopVisit.Account("j2ee", "John"), "search", "fish"));

            visit.request(Map.of("cart", "EST-1"));

            assertThat(new SessionRows(database).attributeVersions(visit.id()))
                    .containsExactlyInAnyOrderEntriesOf(Map.of("account", 2L, "search", 2L, "cart", 2L));
        }
    }
}
