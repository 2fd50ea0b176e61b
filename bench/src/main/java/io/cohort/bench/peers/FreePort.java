package io.cohort.bench.peers;

import io.cohort.bench.ports.PresetPorts;
import java.io.IOException;

/** A port free on loopback now, for processes that must be told their port in advance. */
public final class FreePort {

    private FreePort() {
    }

    /** A port below the ephemeral range, so no socket bound to port 0 meanwhile can take it ({@link PresetPorts}). */
    public static int loopback() throws IOException {
        return PresetPorts.pick(1).get(0);
    }
}
