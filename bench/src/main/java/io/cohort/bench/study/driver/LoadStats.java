package io.cohort.bench.study.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;

/**
 * What the virtual users report while they run, by second, and the response-time histogram of the measurement
 * window. Times are {@link System#nanoTime()} values; second 0 starts at {@code origin} (the end of the
 * warm-up), so warm-up seconds are negative. Latencies are taken from the page's scheduled send time, so a
 * driver that falls behind its schedule shows up as latency rather than hiding it (no coordinated omission); a
 * page that timed out enters the histogram at the time it waited.
 * Thread-safe.
 */
public final class LoadStats {

    private static final int MAX_EXAMPLES = 8;
    private static final long MAX_LATENCY_MICROS = TimeUnit.HOURS.toMicros(1);

    private final long origin;
    private final long window;
    private final Histogram histogram = new Histogram(MAX_LATENCY_MICROS, 3);
    private final ConcurrentNavigableMap<Long, Second> seconds = new ConcurrentSkipListMap<>();
    private final Map<ScenarioOutcome, Map<String, LongAdder>> examples = new ConcurrentHashMap<>();

    /**
     * @param origin the start of the measurement window ({@code System.nanoTime()})
     * @param windowNanos its length
     */
    public LoadStats(long origin, long windowNanos) {
        this.origin = origin;
        this.window = windowNanos;
    }

    /** A response arrived at {@code completed}, {@code latency} after its scheduled send time. */
    void page(long completed, long latency, boolean failed) {
        Second second = second(completed);
        second.pages.increment();
        second.latencyMicros.add(TimeUnit.NANOSECONDS.toMicros(latency));
        if (failed) {
            second.errors.increment();
            second.failedPages.increment();
        }
        if (inWindow(completed)) {
            record(latency);
        }
    }

    private void record(long latencyNanos) {
        long micros = Math.min(MAX_LATENCY_MICROS, Math.max(0, TimeUnit.NANOSECONDS.toMicros(latencyNanos)));
        synchronized (histogram) {
            histogram.recordValue(micros);
        }
    }

    /**
     * A page got no response at all (connection refused or reset), or the driver failed before a page was sent; it is
     * an error, with no response time and no page.
     */
    void failedWithoutResponse(long at) {
        second(at).errors.increment();
    }

    /**
     * A page got no response within the page timeout: an error, and in the window's histogram at the time it
     * waited ({@code waited} since its scheduled send time, at least the timeout), so the slowest pages stay in the
     * percentiles and the mean rather than dropping out of them. Not counted as a page served, nor in the second's mean.
     */
    void timedOut(long at, long waited) {
        second(at).errors.increment();
        if (inWindow(at)) {
            record(waited);
        }
    }

    /**
     * A page arrived but was not what the scenario expected (a 4xx, another page, missing content); it ended it. The
     * page was counted as a response ({@link #page}); now it is a failed one.
     */
    void unexpectedPage(long at) {
        Second second = second(at);
        second.errors.increment();
        second.failedPages.increment();
    }

    /** A scenario ended at {@code at}. */
    void scenario(long at, ScenarioOutcome outcome) {
        Second second = second(at);
        switch (outcome) {
            case COMPLETED -> second.scenarios.increment();
            case SESSION_LOST -> second.sessionsLost.increment();
            case ERROR -> second.abandoned.increment();
            case CUT_SHORT -> { }
        }
    }

    private static final java.util.regex.Pattern LEADING_STATUS = java.util.regex.Pattern.compile("[1-5]\\d\\d ");

    /**
     * Keeps why a scenario failed, grouped by message with its numbers left out (at most {@value #MAX_EXAMPLES} messages
     * per outcome), except an HTTP status the message starts with: a 502 and a 403 are different failures.
     */
    void example(ScenarioOutcome outcome, String message) {
        java.util.regex.Matcher status = LEADING_STATUS.matcher(message);
        String key = status.lookingAt() ? status.group() + message.substring(status.end()).replaceAll("\\d+", "#")
                : message.replaceAll("\\d+", "#");
        Map<String, LongAdder> byMessage = examples.computeIfAbsent(outcome,
                o -> new ConcurrentHashMap<>());
        if (byMessage.size() < MAX_EXAMPLES || byMessage.containsKey(key)) {
            byMessage.computeIfAbsent(key, k -> new LongAdder()).increment();
        }
    }

    /** Why scenarios failed, e.g. {@code "SESSION_LOST ×3: cart holds {} but ..."}, most frequent first. */
    public List<String> failureExamples() {
        List<String> lines = new ArrayList<>();
        examples.forEach((outcome, byMessage) -> byMessage.entrySet().stream()
                .sorted((a, b) -> Long.compare(b.getValue().sum(), a.getValue().sum()))
                .forEach(e -> lines.add(outcome + " ×" + e.getValue().sum() + ": " + e.getKey())));
        return lines;
    }

    boolean inWindow(long at) {
        long since = at - origin;
        return since >= 0 && since < window;
    }

    public long origin() {
        return origin;
    }

    /** Seconds since the start of the measurement window. */
    public double secondsSinceOrigin(long at) {
        return (at - origin) / 1e9;
    }

    private Second second(long at) {
        long index = Math.floorDiv(at - origin, 1_000_000_000L);
        return seconds.computeIfAbsent(index, k -> new Second());
    }

    /** A copy of the histogram of the measurement window, in microseconds. */
    public Histogram windowHistogram() {
        synchronized (histogram) {
            return histogram.copy();
        }
    }

    /**
     * Every second from the first one something happened in to the last one, in order; a second in between in which
     * nothing happened (no page, no error, no scenario ended: a stall) is there with zero counts.
     */
    public List<SecondCounts> seconds() {
        List<SecondCounts> list = new ArrayList<>();
        Long previous = null;
        for (Map.Entry<Long, Second> entry : seconds.entrySet()) {
            long index = entry.getKey();
            for (long quiet = previous == null ? index : previous + 1; quiet < index; quiet++) {
                list.add(SecondCounts.quiet(quiet));
            }
            list.add(entry.getValue().counts(index));
            previous = index;
        }
        return list;
    }

    /**
     * The seconds of the measurement window, every one of them, with zero counts for those nothing happened in. Call
     * it once the window is over: until then its later seconds read as quiet.
     */
    public List<SecondCounts> windowSeconds() {
        long last = (window + 999_999_999L) / 1_000_000_000L;
        List<SecondCounts> list = new ArrayList<>();
        for (long index = 0; index < last; index++) {
            Second second = seconds.get(index);
            list.add(second == null ? SecondCounts.quiet(index) : second.counts(index));
        }
        return list;
    }

    /**
     * One second of the run.
     *
     * @param second        index since the start of the window (negative in warm-up)
     * @param pages         responses received
     * @param errors        failed pages: no response, 5xx, or not the page the scenario expected
     * @param meanMs        mean response time of the responses
     * @param scenarios     scenarios completed
     * @param sessionsLost  scenarios that found their session lost or stale
     * @param abandoned     scenarios ended by an error
     * @param failedPages   the responses among {@code pages} that failed (5xx, or not the page the scenario expected)
     */
    public record SecondCounts(long second, long pages, long errors, double meanMs, long scenarios, long sessionsLost,
            long abandoned, long failedPages) {

        static SecondCounts quiet(long second) {
            return new SecondCounts(second, 0, 0, 0, 0, 0, 0, 0);
        }

        /** The responses that were the page the scenario expected. */
        public long goodPages() {
            return Math.max(0, pages - failedPages);
        }
    }

    private static final class Second {
        final LongAdder pages = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LongAdder failedPages = new LongAdder();
        final LongAdder latencyMicros = new LongAdder();
        final LongAdder scenarios = new LongAdder();
        final LongAdder sessionsLost = new LongAdder();
        final LongAdder abandoned = new LongAdder();

        SecondCounts counts(long index) {
            long served = pages.sum();
            return new SecondCounts(index, served, errors.sum(), served == 0 ? 0 : latencyMicros.sum() / 1000.0 / served,
                    scenarios.sum(), sessionsLost.sum(), abandoned.sum(), failedPages.sum());
        }
    }
}
