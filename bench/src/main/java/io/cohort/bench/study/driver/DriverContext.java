package io.cohort.bench.study.driver;

import java.util.concurrent.ScheduledExecutorService;
import java.util.function.BooleanSupplier;
import org.eclipse.jetty.client.HttpClient;

/**
 * What all virtual users of one run share: the non-blocking HTTP client (without a cookie store: each user
 * keeps its own cookies), the timer that wakes users after their think time, the statistics, the gate that lets
 * a user start its next scenario, and the flag that ends the run.
 */
final class DriverContext {

    final DriverSettings settings;
    final HttpClient http;
    final ScheduledExecutorService timer;
    final LoadStats stats;
    final ShopVocabulary vocabulary;
    private final BooleanSupplier admission;
    private volatile boolean stopping;

    DriverContext(DriverSettings settings, HttpClient http, ScheduledExecutorService timer, LoadStats stats,
            ShopVocabulary vocabulary) {
        this(settings, http, timer, stats, vocabulary, () -> true);
    }

    /**
     * @param admission asked before each scenario; while it says no, a user waits between scenarios
     */
    DriverContext(DriverSettings settings, HttpClient http, ScheduledExecutorService timer, LoadStats stats,
            ShopVocabulary vocabulary, BooleanSupplier admission) {
        this.admission = admission;
        this.settings = settings;
        this.http = http;
        this.timer = timer;
        this.stats = stats;
        this.vocabulary = vocabulary;
    }

    /** Whether a user may start a scenario now. */
    boolean admits() {
        return admission.getAsBoolean();
    }

    boolean stopping() {
        return stopping;
    }

    void stop() {
        stopping = true;
    }
}
