package io.cohort.bench.study.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicationPortsTest {

    @Test
    void picksDistinctFreePortsBelowTheEphemeralRange() throws Exception {
        List<Integer> ports = ReplicationPorts.pick(4);

        assertThat(ports).hasSize(4).doesNotHaveDuplicates()
                .allSatisfy(port -> assertThat(port).isBetween(10_000, ReplicationPorts.ephemeralStart() - 1));
    }
}
