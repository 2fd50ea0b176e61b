package io.cohort.bench.tomcat;

import java.util.concurrent.atomic.LongAdder;

/**
 * The bytes a node's cluster channel sent and received so far, as {@link ByteCountingInterceptor} counts
 * them and {@link MetricsServlet} shows them. Thread-safe; a node without a cluster keeps both at zero.
 */
final class ChannelBytes {

    private final LongAdder sent = new LongAdder();
    private final LongAdder received = new LongAdder();

    void sent(long bytes) {
        sent.add(bytes);
    }

    void received(long bytes) {
        received.add(bytes);
    }

    long sent() {
        return sent.sum();
    }

    long received() {
        return received.sum();
    }
}
