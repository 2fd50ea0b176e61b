package io.cohort.bench.study.run;

import io.cohort.bench.study.driver.LoadDriver;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Makes a started system ready to be measured, whatever it is: waits until the shop serves its keywords through
 * every front door (the first request prepares the database), then has one visitor per front door walk the whole
 * scenario without think time, so every node has compiled its pages before the warm-up.
 */
final class ShopReadiness {

    private ShopReadiness() {
    }

    /**
     * @param logs where the system's logs are, for the error message
     * @throws IOException if the shop does not answer in time or the warm-up visit fails
     */
    static void await(List<URI> shops, int accounts, Duration timeout, Path logs) throws Exception {
        awaitShop(shops, timeout, logs);
        List<String> failed = LoadDriver.warmUp(shops, accounts, timeout);
        if (!failed.isEmpty()) {
            throw new IOException("the shop's warm-up visit failed: " + failed + "; see the node logs in " + logs);
        }
    }

    private static void awaitShop(List<URI> shops, Duration timeout, Path logs) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (URI shop : shops) {
            URI keywords = URI.create(shop + "/keywords.txt");
            String last = "no answer";
            while (true) {
                try {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(keywords)
                            .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
                    if (response.statusCode() == 200 && !response.body().isBlank()) {
                        break;
                    }
                    last = "status " + response.statusCode();
                } catch (IOException e) {
                    last = e.toString();
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new IOException("the shop did not serve " + keywords + " within " + timeout.toSeconds()
                            + " s (last: " + last + "); see the node logs in " + logs);
                }
                Thread.sleep(250);
            }
        }
    }
}
