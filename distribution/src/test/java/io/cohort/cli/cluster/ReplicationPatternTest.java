package io.cohort.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReplicationPatternTest {

    @Test
    void theStudysNotationWithWriteQuotaAndBatchSize() {
        ReplicationPattern pattern = ReplicationPattern.parse("2112wq2b1");

        assertThat(pattern).isEqualTo(new ReplicationPattern("2112wq2b1", Optional.of("peer"), "onSetAttribute",
                "modifiedAttributes", true, 2, Optional.of(1), Optional.empty(), GroupSecurity.ENCRYPTED));
        assertThat(ReplicationPattern.parse("1211").batchSize()).isEmpty();
        assertThat(ReplicationPattern.parse("1211b16").batchSize()).contains(16);
        assertThat(ReplicationPattern.parse("2211f10").flushInterval()).contains(Duration.ofMillis(10));
        assertThat(ReplicationPattern.parse("2211b8f0").flushInterval()).contains(Duration.ZERO);
    }

    @Test
    void theBatchSizeReachesTheGroupProtocolsElement() {
        ReplicationPlan peer = new ReplicationPlan(ReplicationPattern.parse("2211b1"), List.of(7800, 7801));
        ReplicationPlan multicast = new ReplicationPlan(ReplicationPattern.parse("1211b8"), List.of(45000, 45000));
        ReplicationPlan unset = new ReplicationPlan(ReplicationPattern.parse("2211"), List.of(7800, 7801));

        assertThat(peer.configXml("c", 1)).contains("<peer bind-addr=\"127.0.0.1\" start-port=\"7801\" range=\"1\" "
                + "timeout=\"1s\" batch-size=\"1\">");
        assertThat(multicast.configXml("c", 0)).contains("batch-size=\"8\"/>");
        assertThat(unset.configXml("c", 0)).doesNotContain("batch-size").doesNotContain("flush-interval");
        assertThat(new ReplicationPlan(ReplicationPattern.parse("2211f10"), List.of(7800, 7801)).configXml("c", 0))
                .contains("timeout=\"1s\" flush-interval=\"10ms\">");
    }

    @Test
    void theSecuritySuffixDecidesTheSecurityElementAndWhetherNodesGetTheSecret() {
        ReplicationPlan encrypted = new ReplicationPlan(ReplicationPattern.parse("2211"), List.of(7800, 7801));
        ReplicationPlan authenticated = new ReplicationPlan(ReplicationPattern.parse("2211f2s1"), List.of(7800, 7801));
        ReplicationPlan open = new ReplicationPlan(ReplicationPattern.parse("1211s0"), List.of(45000, 45000));

        assertThat(ReplicationPattern.parse("2211").security()).isEqualTo(GroupSecurity.ENCRYPTED);
        assertThat(ReplicationPattern.parse("2211s2").security()).isEqualTo(GroupSecurity.ENCRYPTED);
        assertThat(ReplicationPattern.parse("2211wq2s1").security()).isEqualTo(GroupSecurity.AUTHENTICATED);
        assertThat(encrypted.configXml("c", 0)).contains("<security secret-env=\"COHORT_CLUSTER_SECRET\"/>");
        assertThat(authenticated.configXml("c", 0))
                .contains("<security secret-env=\"COHORT_CLUSTER_SECRET\" encrypt=\"false\"/>")
                .contains("flush-interval=\"2ms\"");
        assertThat(open.configXml("c", 0)).doesNotContain("<security");
        assertThat(encrypted.usesSecret()).isTrue();
        assertThat(authenticated.usesSecret()).isTrue();
        assertThat(open.usesSecret()).isFalse();
        assertThat(new ReplicationPlan(ReplicationPattern.NONE, List.of()).usesSecret()).isFalse();
        ReplicationPlan database = new ReplicationPlan(ReplicationPattern.parse("3211"), List.of());
        assertThat(database.configXml("c", 0)).as("the database protocol: nothing uses a cluster secret")
                .contains("<database").doesNotContain("<security");
        assertThat(database.usesSecret()).isFalse();
        assertThat(List.of("2211", "2211s3", "2211s4", "2211s1", "1211", "3211", "none"))
                .as("over TLS: peer with s2 or s3")
                .map(name -> name.equals("none") ? ReplicationPattern.NONE.overTls() : ReplicationPattern.parse(name).overTls())
                .containsExactly(true, true, false, false, false, false, false);
        assertThatThrownBy(() -> ReplicationPattern.parse("3211s0")).hasMessageContaining("security");
        assertThatThrownBy(() -> ReplicationPattern.parse("2211s5")).hasMessageContaining("invalid replication pattern");
    }

    @Test
    void securityThreeRunsThePeerGroupOverTlsAndNothingElse() {
        ReplicationPlan tls = new ReplicationPlan(ReplicationPattern.parse("2211s3"), List.of(7800, 7801));

        assertThat(ReplicationPattern.parse("2212wq2s3").security()).isEqualTo(GroupSecurity.TLS);
        assertThat(tls.configXml("c", 0)).contains("<security secret-env=\"COHORT_CLUSTER_SECRET\" tls=\"true\"/>");
        assertThat(tls.usesSecret()).isTrue();
        assertThatThrownBy(() -> ReplicationPattern.parse("1211s3")).hasMessageContaining("s3 (TLS) needs the peer protocol");
        assertThatThrownBy(() -> ReplicationPattern.parse("3211s3")).hasMessageContaining("security");
    }

    @Test
    void securityFourEncryptsPayloadsWithoutTlsOnEitherGroupProtocol() {
        assertThat(ReplicationPattern.parse("2211s4").security()).isEqualTo(GroupSecurity.PAYLOAD_ENCRYPTED);
        assertThat(new ReplicationPlan(ReplicationPattern.parse("2211s4"), List.of(7800, 7801)).configXml("c", 0))
                .contains("<security secret-env=\"COHORT_CLUSTER_SECRET\" tls=\"false\"/>");
        assertThat(new ReplicationPlan(ReplicationPattern.parse("1211s4"), List.of(45000, 45000)).configXml("c", 0))
                .contains("tls=\"false\"");
        assertThatThrownBy(() -> ReplicationPattern.parse("3211s4")).hasMessageContaining("security");
    }

    @Test
    void bundlingSuffixesForTheDatabaseAndABatchSizeOfZeroAreRefused() {
        assertThatThrownBy(() -> ReplicationPattern.parse("3211b4")).hasMessageContaining("not to database");
        assertThatThrownBy(() -> ReplicationPattern.parse("3211f5")).hasMessageContaining("not to database");
        assertThatThrownBy(() -> ReplicationPattern.parse("2211b0")).hasMessageContaining("invalid replication pattern");
    }
}
