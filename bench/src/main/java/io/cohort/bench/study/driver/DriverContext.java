package io.cohort.bench.study.driver;

import java.util.concurrent.ScheduledExecutorService;
import org.eclipse.jetty.client.HttpClient;

/**
 * What all virtual users of one run share: the non-blocking HTTP client (without a cookie store: each user
 * keeps its own cookies), the timer that wakes users after their think time, the statistics, and the flag
 * that ends the run.
 */
final class DriverContext {

    final DriverSettings settings;
    final HttpClient http;
    final ScheduledExecutorService timer;
    final LoadStats stats;
    final ShopVocabulary vocabulary;
    private volatile boolean stopping;

    DriverContext(DriverSettings settings, HttpClient http, ScheduledExecutorService timer, LoadStats stats,
            ShopVocabulary vocabulary) {
        this.settings = settings;
        this.http = http;
        this.timer = timer;
        this.stats = stats;
        this.vocabulary = vocabulary;
    }

    boolean stopping() {
        return stopping;
    }

    void stop() {
        stopping = true;
    }
}
