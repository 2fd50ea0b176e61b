package io.cohort.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code <node>} element: this node's identity and HTTP connector.
 *
 * @param name         the node name, also the session route suffix ({@code <id>.<name>}); letters,
 *                     digits, '-' and '_' only
 * @param host         the host this node counts as for local routing and colocation
 * @param bindAddress  the address the HTTP connector listens on
 * @param httpPort     the HTTP port, 0 for a free one
 * @param webapps      the deployment directory, absolute
 * @param workDir      the scratch directory, absolute
 * @param maxThreads   the request thread pool size
 * @param gracefulStop how long a stop waits before forcing
 * @param scanInterval the hot-deployment scan period; {@link Duration#ZERO} disables hot deployment
 * @param idleTimeout  how long the HTTP and admin connectors keep an idle connection; above zero, and meant to be
 *                     above the {@code idle-timeout} of the balancers in front of the node, so they close first
 * @param trustedProxies the addresses and CIDR ranges (e.g. {@code 10.1.0.0/16}) whose forwarding headers
 *                     ({@code X-Forwarded-*}, {@code Forwarded}) the HTTP connector applies to a request; empty
 *                     trusts nobody
 */
public record NodeConfig(String name, String host, String bindAddress, int httpPort, Path webapps, Path workDir,
                         int maxThreads, Duration gracefulStop, Duration scanInterval, Duration idleTimeout,
                         List<String> trustedProxies) {

    public NodeConfig {
        Objects.requireNonNull(name, "name");
        if (!name.matches("[A-Za-z0-9_-]+")) {
            throw new IllegalArgumentException("node name must be letters, digits, '-' and '_': " + name);
        }
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(bindAddress, "bindAddress");
        Ports.check("httpPort", httpPort, 0);
        Objects.requireNonNull(webapps, "webapps");
        Objects.requireNonNull(workDir, "workDir");
        if (maxThreads < 1) {
            throw new IllegalArgumentException("maxThreads must be at least 1: " + maxThreads);
        }
        Objects.requireNonNull(gracefulStop, "gracefulStop");
        Objects.requireNonNull(scanInterval, "scanInterval");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive: " + idleTimeout);
        }
        trustedProxies = List.copyOf(trustedProxies);
    }

    /** Whether the webapps directory is scanned for changes while the node runs. */
    public boolean hotDeployment() {
        return !scanInterval.isZero();
    }
}
