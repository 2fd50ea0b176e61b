package io.cohort.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class PresetPortsTest {

    @Test
    void picksDistinctFreePortsBelowTheEphemeralRange() throws Exception {
        List<Integer> ports = PresetPorts.pick(4);

        assertThat(ports).hasSize(4).doesNotHaveDuplicates()
                .allSatisfy(port -> assertThat(port).isBetween(10_000, PresetPorts.ephemeralStart() - 1));
    }
}
