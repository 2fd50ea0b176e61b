package io.cohort.bench.peers;

import io.cohort.bench.sut.NodeProbe;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One application-server process of a system under test, as the bench samples and kills it.
 *
 * @param name    its name, which is also its session route ({@code <id>.<name>})
 * @param http    where it serves applications, e.g. {@code http://127.0.0.1:8081}
 * @param health  its health answer (2xx when up), for fronts' health checks
 * @param pid     its process id, for CPU sampling and SIGKILL
 * @param metrics its Prometheus metrics endpoint, if it has one (Cohort nodes: admin {@code /metrics}; Tomcat
 *                nodes: {@code /metrics} with the cluster channel's bytes; Jetty JDBC nodes: none)
 */
public record BackendNode(String name, URI http, URI health, long pid, Optional<URI> metrics) {

    public BackendNode {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("node name must be letters, digits, '-' and '_': " + name);
        }
        Objects.requireNonNull(http, "http");
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(metrics, "metrics");
    }

    /** How the bench samples this node. */
    public NodeProbe probe() {
        return new NodeProbe(name, OptionalLong.of(pid), metrics);
    }

    /** Sends SIGKILL to the node process, if it still runs. */
    public void kill() {
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
    }
}
