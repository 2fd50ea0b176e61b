package io.cohort.balancer;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.net.SocketAddress;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client connections the balancer closed because of its {@code <client-limits>}: counted per reason in
 * {@code cohort_balancer_client_connections_closed_total{reason}}, and logged once per reason, so a
 * flood of them cannot flood the log. Thread-safe.
 */
final class ClientConnectionClosures {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnectionClosures.class);

    /** Why a client connection was closed. */
    enum Reason {
        /** Its request head did not arrive within {@code header-timeout}. */
        HEADER_TIMEOUT("header_timeout", "its request head did not arrive within header-timeout"),
        /** Its address already had {@code max-connections-per-address} connections open. */
        PER_ADDRESS_LIMIT("per_address_limit", "its address already had max-connections-per-address connections open");

        private final String tag;
        private final String because;

        Reason(String tag, String because) {
            this.tag = tag;
            this.because = because;
        }
    }

    private final String balancer;
    private final Map<Reason, Counter> counters = new EnumMap<>(Reason.class);
    private final Map<Reason, AtomicBoolean> logged = new EnumMap<>(Reason.class);

    ClientConnectionClosures(String balancer, MeterRegistry registry) {
        this.balancer = balancer;
        for (Reason reason : Reason.values()) {
            counters.put(reason, Counter.builder("cohort.balancer.client.connections.closed").tag("reason", reason.tag)
                    .description("client connections closed without an answer because of <client-limits>").register(registry));
            logged.put(reason, new AtomicBoolean());
        }
    }

    /** Counts a closed connection, and logs the first one of each reason. */
    void closed(Reason reason, SocketAddress client) {
        counters.get(reason).increment();
        if (logged.get(reason).compareAndSet(false, true)) {
            LOG.warn("Balancer {} closed a client connection from {}: {} (further ones are counted in "
                    + "cohort_balancer_client_connections_closed_total{reason=\"{}\"}, not logged)", balancer, client, reason.because,
                    reason.tag);
        }
    }

    /** How many connections were closed for {@code reason}. */
    double count(Reason reason) {
        return counters.get(reason).count();
    }
}
