package io.cohort.bench.study.run;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Fetches a node's Prometheus text metrics; a node that does not answer in time (killed, stopped) has none. */
final class MetricsPage {

    /** How long a sample taken every second waits: a later answer would belong to the next sample. */
    private static final Duration SAMPLE_TIMEOUT = Duration.ofMillis(800);

    private MetricsPage() {
    }

    /** The text of {@code metrics}, or empty if the node did not answer 200 within 800 ms. */
    static Optional<String> fetch(HttpClient http, URI metrics) {
        return fetch(http, metrics, SAMPLE_TIMEOUT);
    }

    /** The text of {@code metrics}, or empty if the node did not answer 200 within {@code timeout}. */
    static Optional<String> fetch(HttpClient http, URI metrics, Duration timeout) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(metrics).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.statusCode() == 200 ? Optional.of(response.body()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
