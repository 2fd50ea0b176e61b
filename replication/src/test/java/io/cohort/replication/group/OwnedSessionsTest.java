package io.cohort.replication.group;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What an owner keeps per session: replicas are made by full copies only, and never for a session taken over. */
class OwnedSessionsTest {

    private final OwnedSessions owned = new OwnedSessions();

    @Test
    void aDeltaForASessionThisNodeHasNoReplicaOfMakesNone() {
        // the session left this node (taken over elsewhere) between the engine's look and the transport's
        assertThat(owned.replicaForChange("s1", false)).isNull();
        assertThat(owned.owns("s1")).isFalse();
    }

    @Test
    void aFullCopyMakesTheReplicaAndALaterDeltaFindsIt() {
        OwnedReplica first = owned.replicaForChange("s1", true);

        assertThat(first).isNotNull();
        assertThat(owned.replicaForChange("s1", false)).isSameAs(first);
    }

    @Test
    void noChangeMakesAReplicaOfASessionTakenOverElsewhere() {
        owned.replicaForChange("s1", true);
        owned.disown("s1");

        assertThat(owned.replicaForChange("s1", true)).isNull();
        assertThat(owned.replicaForChange("s1", false)).isNull();
        assertThat(owned.owns("s1")).isFalse();
    }
}
