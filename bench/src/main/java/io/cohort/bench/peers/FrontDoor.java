package io.cohort.bench.peers;

import io.cohort.net.PresetPorts;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** A running balancer in front of backend nodes; {@link #close} stops it. */
public interface FrontDoor extends AutoCloseable {

    URI uri();

    @Override
    void close() throws InterruptedException;

    /**
     * Starts a front of the given kind on {@code 127.0.0.1:port} (0: a free port) for the nodes, sticky on
     * the {@code JSESSIONID} route suffix, with health checks on {@link BackendNode#health()}.
     *
     * @param dir where HAProxy keeps its configuration and log
     */
    static FrontDoor start(FrontKind kind, List<BackendNode> nodes, int port, Path dir, Duration timeout)
            throws Exception {
        return switch (kind) {
            case COHORT_BALANCER -> CohortBalancerFront.start(nodes, port);
            case HAPROXY -> HaproxyFront.start(new HaproxyConfig(port == 0 ? PresetPorts.one() : port, nodes), dir,
                    timeout);
        };
    }
}
