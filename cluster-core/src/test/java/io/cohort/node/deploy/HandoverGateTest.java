package io.cohort.node.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.junit.jupiter.api.Test;

/** What a {@link HandoverGate} keeps once the old version has handed its sessions over. */
class HandoverGateTest {

    @Test
    void afterTheHandOverTheGateNoLongerKeepsTheOldVersionReachable() throws Exception {
        Object oldVersion = new Object();
        WeakReference<Object> reference = new WeakReference<>(oldVersion);
        HandoverGate gate = new HandoverGate(new WebAppContext(), holdsSessionsOf(oldVersion), Duration.ofSeconds(1));
        oldVersion = null;

        gate.handedOver();

        // each redeploy's gate would otherwise keep the version before it, and so every earlier version, reachable
        for (int i = 0; i < 50 && reference.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(reference.get()).as("the old version is collectable").isNull();
        assertThat(gate).isNotNull();
    }

    /** A predecessor that, like the deployer's, refers to the old version. */
    private static HandoverGate.Predecessor holdsSessionsOf(Object version) {
        return new HandoverGate.Predecessor() {
            @Override
            public boolean holds(String id) {
                return version.hashCode() == id.hashCode();
            }

            @Override
            public CompletionStage<Void> handOver(String id) {
                return CompletableFuture.completedFuture(null);
            }
        };
    }
}
