package io.cohort.replication.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** The gauges of an application while two of its deployments run (a redeploy). */
class ReplicationMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void aNewDeploymentThatClosesFirstLeavesTheServingDeploymentsGaugesReporting() {
        ReplicationMetrics serving = new ReplicationMetrics(registry, "shop");
        serving.gauge(ReplicationMetrics.OWNED, () -> 7);
        ReplicationMetrics failed = new ReplicationMetrics(registry, "shop");
        failed.gauge(ReplicationMetrics.OWNED, () -> 0);
        assertThat(owned().value()).as("the newest deployment reports").isEqualTo(0.0);

        failed.close(); // it failed to start and was stopped

        assertThat(owned().value()).isEqualTo(7.0);
        serving.close();
        assertThat(registry.find(ReplicationMetrics.OWNED).gauges()).isEmpty();
    }

    @Test
    void theOldDeploymentRetiringLeavesTheNewOnesGauges() {
        ReplicationMetrics old = new ReplicationMetrics(registry, "shop");
        old.gauge(ReplicationMetrics.OWNED, () -> 7);
        ReplicationMetrics redeployed = new ReplicationMetrics(registry, "shop");
        redeployed.gauge(ReplicationMetrics.OWNED, () -> 3);

        old.close();

        assertThat(owned().value()).isEqualTo(3.0);
        assertThat(registry.find(ReplicationMetrics.OWNED).gauges()).hasSize(1);
        redeployed.close();
    }

    private Gauge owned() {
        return registry.find(ReplicationMetrics.OWNED).tags("app", "shop").gauge();
    }
}
