package io.cohort.replication.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ReceivedMetersTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ReceivedMeters received = new ReceivedMeters(registry);

    @Test
    void aChangeCountsOneChangeAndItsBytesOtherTrafficOnlyBytesEachUnderItsApplication() {
        received.change("shop", 300);
        received.change("shop", 200);
        received.bytes("shop", 40);
        received.change("admin", 7);

        assertThat(count(ReplicationMetrics.CHANGES, "shop")).isEqualTo(2);
        assertThat(count(ReplicationMetrics.BYTES, "shop")).isEqualTo(540);
        assertThat(count(ReplicationMetrics.CHANGES, "admin")).isEqualTo(1);
        assertThat(count(ReplicationMetrics.BYTES, "admin")).isEqualTo(7);
    }

    @Test
    void anApplicationsCountersExistAtZeroOnceItsMetricsAreCreated() {
        try (var metrics = new ReplicationMetrics(registry, "shop")) {
            assertThat(count(ReplicationMetrics.CHANGES, "shop")).isZero();
            received.change("shop", 10);
            assertThat(count(ReplicationMetrics.CHANGES, "shop")).isEqualTo(1);
            assertThat(registry.find(ReplicationMetrics.CHANGES).tag("direction", ReplicationMetrics.RECEIVED)
                    .counters()).hasSize(1); // the same meter, not a second one
        }
    }

    private double count(String name, String application) {
        return registry.get(name).tags("app", application, "direction", ReplicationMetrics.RECEIVED).counter().count();
    }
}
