package io.cohort.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class PresetPortsTest {

    @Test
    void picksDistinctFreePortsBelowTheEphemeralRange() throws Exception {
        List<Integer> ports = PresetPorts.pick(4);

        assertThat(ports).hasSize(4).doesNotHaveDuplicates()
                .allSatisfy(port -> assertThat(port).isBetween(10_000, PresetPorts.ephemeralStart() - 1));
    }

    /**
     * A JGroups transport whose port is taken binds one of the next 9, and its failure detector (FD_SOCK2) binds one
     * of the 4 ports 100 above that: no port picked in this process is within 9, or 100 to 112, of another. Of 120
     * ports picked without regard to each other, about 14 pairs would be.
     */
    @Test
    void noTwoPortsPickedInAProcessAreEachOthersTransportOrFailureDetectionNeighbours() throws Exception {
        List<Integer> ports = new ArrayList<>(PresetPorts.pick(40));
        for (int i = 0; i < 40; i++) {
            ports.add(PresetPorts.one());
        }
        ports.addAll(PresetPorts.pick(40));

        for (int i = 0; i < ports.size(); i++) {
            for (int j = i + 1; j < ports.size(); j++) {
                int apart = Math.abs(ports.get(i) - ports.get(j));
                assertThat(apart <= 9 || (apart >= 100 && apart <= 112)).as("ports %d and %d are neighbours",
                        ports.get(i), ports.get(j)).isFalse();
            }
        }
    }
}
