package io.cohort.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code <peer>}: point-to-point TCP between members (JGroups TCP_NIO2: non-blocking sockets).
 *
 * @param bindAddress         the address the transport listens on
 * @param startPort           the first port tried
 * @param range               how many ports from {@code startPort} are tried (and probed at members)
 * @param timeout             how long discovery waits when the node joins
 * @param discovery           how members find each other
 * @param dnsQuery            the DNS name listing the members; present exactly when discovery is DNS
 * @param discoveryDataSource the declared data source holding the discovery table; present exactly
 *                            when discovery is JDBC
 * @param stack               a JGroups stack file replacing the built-in one (absolute path)
 * @param members             the initial members for static discovery, in file order
 * @param batchSize           the most queued asynchronous changes a send lane puts into one group
 *                            message (1: every change alone)
 * @param flushInterval       how long a send lane waits for changes to join its group message
 */
public record PeerProtocol(String bindAddress, int startPort, int range, Duration timeout, Discovery discovery,
                           Optional<String> dnsQuery, Optional<DataSourceConfig> discoveryDataSource,
                           Optional<Path> stack, List<PeerMember> members, int batchSize, Duration flushInterval)
        implements GroupProtocol {

    /** The default {@code batch-size}. */
    public static final int DEFAULT_BATCH_SIZE = 64;
    /** The default {@code flush-interval}. */
    public static final Duration DEFAULT_FLUSH_INTERVAL = Duration.ofMillis(2);

    public PeerProtocol {
        Objects.requireNonNull(bindAddress, "bindAddress");
        Ports.check("startPort", startPort, 1);
        if (range < 1) {
            throw new IllegalArgumentException("range must be at least 1: " + range);
        }
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(discovery, "discovery");
        Objects.requireNonNull(dnsQuery, "dnsQuery");
        Objects.requireNonNull(discoveryDataSource, "discoveryDataSource");
        Objects.requireNonNull(stack, "stack");
        members = List.copyOf(members);
        GroupProtocol.checkBundling(batchSize, flushInterval);
        if (dnsQuery.isPresent() != (discovery == Discovery.DNS)) {
            throw new IllegalArgumentException("dnsQuery is required with DNS discovery and only then");
        }
        if (discoveryDataSource.isPresent() != (discovery == Discovery.JDBC)) {
            throw new IllegalArgumentException("discoveryDataSource is required with JDBC discovery and only then");
        }
    }
}
