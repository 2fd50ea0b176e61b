package io.cohort.bench.study.driver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A page without an answer: a timeout enters the response-time histogram at the time it waited, a refusal does not. */
class ShopBrowserTimeoutTest {

    private static final Duration PAGE_TIMEOUT = Duration.ofMillis(400);

    private final HttpClient http = new HttpClient();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final LoadStats stats = new LoadStats(System.nanoTime(), TimeUnit.MINUTES.toNanos(5));

    @BeforeEach
    void start() throws Exception {
        http.start();
    }

    @AfterEach
    void stop() throws Exception {
        http.stop();
        timer.shutdownNow();
    }

    @Test
    void aPageThatTimesOutIsAnErrorRecordedAtTheTimeItWaited() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try (Socket accepted = silent.accept()) {
                    Thread.sleep(10_000); // reads nothing, answers nothing
                } catch (Exception ignored) {
                    // the test closed the socket
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            ShopBrowser browser = browser(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/jpetstore"));

            assertThatThrownBy(() -> browser.get("/signon").get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).hasMessageContaining("no response to GET /signon")
                    .hasMessageContaining("TimeoutException");
            acceptor.interrupt();
        }

        assertThat(stats.windowHistogram().getTotalCount()).isEqualTo(1);
        assertThat(stats.windowHistogram().getMaxValue()).isGreaterThanOrEqualTo(PAGE_TIMEOUT.toNanos() / 1000);
        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::errors).containsExactly(1L);
        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::pages).containsExactly(0L);
    }

    @Test
    void aRefusedConnectionIsAnErrorWithoutAResponseTime() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        ShopBrowser browser = browser(URI.create("http://127.0.0.1:" + closedPort + "/jpetstore"));

        assertThatThrownBy(() -> browser.get("/signon").get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).hasMessageContaining("no response to GET /signon");

        assertThat(stats.windowHistogram().getTotalCount()).isZero();
        assertThat(stats.seconds()).extracting(LoadStats.SecondCounts::errors).containsExactly(1L);
    }

    private ShopBrowser browser(URI shop) {
        DriverSettings settings = new DriverSettings(List.of(shop), 1, Duration.ofMillis(1), Duration.ZERO, 1,
                PAGE_TIMEOUT, 1);
        DriverContext context = new DriverContext(settings, http, timer, stats, null);
        return new ShopBrowser(context, shop, new Random(1));
    }
}
