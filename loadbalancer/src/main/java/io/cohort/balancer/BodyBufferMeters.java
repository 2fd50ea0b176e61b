package io.cohort.balancer;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the small request bodies read before a member is asked ({@link BufferedBody}) hold at this moment:
 * {@code cohort_balancer_body_buffering} (requests whose body is being read) and
 * {@code cohort_balancer_body_buffers_bytes} (the bytes their buffers hold, which follows the bytes that arrived, not
 * the lengths the clients declared). A buffer counts from the start of its reading until it is complete or failed;
 * a complete body is then the request's content, no longer counted. Thread-safe.
 */
final class BodyBufferMeters {

    private final AtomicInteger reading = new AtomicInteger();
    private final AtomicLong bytes = new AtomicLong();

    BodyBufferMeters(MeterRegistry registry) {
        Gauge.builder("cohort.balancer.body.buffering", reading, AtomicInteger::get)
                .description("requests whose small body the balancer reads before asking a member").register(registry);
        Gauge.builder("cohort.balancer.body.buffers", bytes, AtomicLong::get).baseUnit("bytes")
                .description("bytes held by the buffers of the small bodies being read").register(registry);
    }

    /** A body's reading began; its buffer holds nothing yet. */
    void started() {
        reading.incrementAndGet();
    }

    /** A body's buffer grew by {@code more} bytes. */
    void grew(long more) {
        bytes.addAndGet(more);
    }

    /** A body's reading ended, complete or failed; its buffer held {@code held} bytes. Once per {@link #started}. */
    void ended(long held) {
        bytes.addAndGet(-held);
        reading.decrementAndGet();
    }

    /** Requests whose body is being read now. */
    int reading() {
        return reading.get();
    }

    /** Bytes held by the buffers of the bodies being read now. */
    long bytes() {
        return bytes.get();
    }
}
