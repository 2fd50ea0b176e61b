package io.cohort.bench.study.run;

import io.cohort.bench.sut.NodeProbe;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What a cluster's nodes sent for replication, from their {@code /metrics} counters (direction "sent", every
 * application): changes, messages (one message may carry several changes, and removals and touches count as
 * messages too) and bytes. A value is NaN when it was not measured: a node without metrics or without that counter
 * (no replication) makes the cluster's sum NaN rather than too small. A reading waits up to {@link #READ_TIMEOUT} for
 * each node: the counters are read at the edges of a measured part, often with the machine saturated, and a reading
 * missed loses that whole part's traffic (with 800 ms, a quarter to half the turns of cold runs at 300 users per node
 * were not measured).
 *
 * @param changes  changes sent
 * @param messages replication messages sent
 * @param bytes    replication bytes sent
 */
public record SentTraffic(double changes, double messages, double bytes) {

    /** Nothing measured. */
    public static final SentTraffic NOT_MEASURED = new SentTraffic(Double.NaN, Double.NaN, Double.NaN);

    /** How long a reading waits for each node's answer. */
    static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

    /** The sums over {@code nodes} of their counters now. */
    static SentTraffic read(List<NodeProbe> nodes, HttpClient http) {
        double changes = 0;
        double messages = 0;
        double bytes = 0;
        for (NodeProbe node : nodes) {
            Optional<String> text = node.metrics().flatMap(uri -> MetricsPage.fetch(http, uri, READ_TIMEOUT));
            if (text.isEmpty()) {
                return NOT_MEASURED;
            }
            changes += sent(text.get(), PrometheusText.REPLICATION_CHANGES);
            messages += sent(text.get(), PrometheusText.REPLICATION_MESSAGES);
            bytes += sent(text.get(), PrometheusText.REPLICATION_BYTES);
        }
        return nodes.isEmpty() ? NOT_MEASURED : new SentTraffic(changes, messages, bytes);
    }

    private static double sent(String text, String metric) {
        OptionalDouble value = PrometheusText.sum(text, metric, PrometheusText.SENT);
        return value.isPresent() ? value.getAsDouble() : Double.NaN;
    }

    /** What was sent between {@code before} and this reading. */
    SentTraffic since(SentTraffic before) {
        return new SentTraffic(changes - before.changes, messages - before.messages, bytes - before.bytes);
    }

    /** Changes per message: above 1 when messages carried groups of changes; NaN when nothing was sent or measured. */
    public double changesPerMessage() {
        return messages > 0 ? changes / messages : Double.NaN;
    }
}
